# SPDX-License-Identifier: GPL-2.0
# A cell CPU that never leaves its NMI handler: nmi-hold sends itself an
# NMI, libinmate reports it and halts inside the handler, so the guest
# never executes the IRET that ends NMI blocking.  Root then destroys the
# cell.  With VMX's virtual NMIs, and under QEMU's SVM (which blocks no
# NMI after an injected one), the hypervisor's NMI still reaches the CPU
# and destroy gives it back.  An AMD CPU without vNMI (bochs-svm models
# one) holds every NMI until that IRET, so the CPU cannot be reached: the
# hypervisor reports it lost and says why, the cell is failed, and root
# goes on (docs/hypervisor.md, backend differences).
# machines: bochs-vmx qemu-svm bochs-svm
# cpus: 2
# timeout: 600
# tests: insmod enable nmi-taken destroy-returns cpu-outcome root-alive disable
# console: com3 nmi-reported ^EXCEPTION 2 NMI at RIP
. /tests/lib.sh

online=/sys/devices/system/cpu/cpu1/online
expect_rc insmod 0 insmod /warden.ko
expect_rc enable 0 warden enable $SYSTEM_CELL
warden cell create /configs/cells/tiny-demo.cell >/dev/null
warden cell load tiny-demo /inmates/nmi-hold.bin >/dev/null
warden cell start tiny-demo >/dev/null
sleep 2
# the inmate failed itself (its handler reported the NMI)
state=$(warden cell list | awk '$2 == "tiny-demo" { print $3 }')
if [ "$state" = failed ]; then pass nmi-taken; else fail nmi-taken "state '$state': $(warden console | tail -n 3 | tr '\n' ' ')"; fi
run warden cell destroy tiny-demo
if [ "$RC" = 0 ]; then pass destroy-returns; else fail destroy-returns "rc $RC: $OUT"; fi
if [ "$MACHINE" = bochs-svm ]; then
	why=$(warden console | grep -m 1 'has not returned from its NMI handler')
	if [ "$(cat $online)" = 0 ] && [ -n "$why" ] && warden console | grep -Eq 'CPU 1: no answer to a [a-z]+ request in time; CPU lost'; then pass cpu-outcome; else fail cpu-outcome "online '$(cat $online)', reason '$why': $(warden console | tail -n 4 | tr '\n' ' ')"; fi
else
	if [ "$(cat $online)" = 1 ] && [ "$(taskset -c 1 sh -c 'echo alive')" = alive ]; then pass cpu-outcome; else fail cpu-outcome "CPU 1 online '$(cat $online)': $(warden console | tail -n 4 | tr '\n' ' ')"; fi
fi
if [ "$(taskset -c 0 sh -c 'echo alive')" = alive ] && warden status | grep -q 'cpu 0: running'; then pass root-alive; else fail root-alive "root CPU 0 not working"; fi
expect_rc disable 0 warden disable
