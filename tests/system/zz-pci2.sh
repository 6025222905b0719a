# machines: qemu-svm
# cpus: 2
# timeout: 300
# tests: all
. /tests/lib.sh
D=/sys/bus/pci/devices/0000:00:02.0
insmod /modules/e1000.ko; ls /sys/class/net
insmod /warden.ko
warden enable /configs/system-qemu.cell || echo ENABLE FAILED
echo 1 > $D/remove; ls /sys/class/net
warden cell create /configs/zz-e1000.cell; echo create rc=$?
warden cell load e1000-cell /inmates/tiny-demo.bin; warden cell start e1000-cell
echo 1 > /sys/bus/pci/rescan
ls /sys/bus/pci/devices; ls /sys/class/net
sleep 1
warden cell destroy e1000-cell; echo destroy rc=$?
echo 1 > /sys/bus/pci/rescan
ls /sys/bus/pci/devices; ls /sys/class/net; ls -l $D/driver
ip link set eth0 up; sleep 3; cat /sys/class/net/eth0/operstate; grep eth0 /proc/interrupts
warden disable; echo disable rc=$?
pass all
