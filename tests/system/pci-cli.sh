# SPDX-License-Identifier: GPL-2.0
# The CLI and root Linux's PCI tree (docs/cli.md): "cell create" makes
# Linux let go of the cell's PCI functions (driver_override keeps every
# driver off, the driver unbound), "cell destroy" and "disable" give them
# back (drivers_probe: the driver bound again); a function the system config does not list, or
# with other ids, is refused by the validator (file:line), one Linux does
# not have by the CLI, before anything changes.  The e1000
# at 00:02.0 of the q35 machine; the cell configs are written here.
# While the cell owns the function, the hypervisor hides it from root:
# its configuration space reads all ones.
# machines: qemu-svm
# cpus: 2
# timeout: 180
# tests: e1000-up insmod enable sysfs-root wrong-ids wrong-ids-said wrong-ids-kept missing missing-said linux-missing linux-missing-said create create-said removed hidden-from-root sysfs-cell sysfs-root-without destroy destroy-said back eth0-back create-again disable disable-said back-after-disable
. /tests/lib.sh

dev=/sys/bus/pci/devices/0000:00:02.0
# cell_yaml BDF IDS: a cell that takes the e1000's resources and names
# the function BDF with ids IDS
cell_yaml() {
	cat <<YAML
cell:
  name: pci-demo
  cpus: 1
  memory:
    - {phys: 0x30600000, guest: 0, size: 1M, flags: [read, write, execute, loadable]}
    - {phys: 0, guest: 0x100000, size: 4K, flags: [read, write, comm_region]}
    - {phys: 0xfeb40000, guest: 0xfeb40000, size: 128K, flags: [read, write, io]}
  ports: [0xc000-0xc03f]
  irq_pins: [22]
  pci_devices:
    - bdf: $1
      ids: $2
      int_pin: A
      gsi: 22
      dma_unisolated: true
      bars:
        - {bar: 0, address: 0xfeb40000, size: 128K, type: mem32}
        - {bar: 1, address: 0xc000, size: 64, type: io}
YAML
}
cell_yaml 00:02.0 8086:100e >/tmp/pci-demo.yaml
cell_yaml 00:02.0 8087:100e >/tmp/pci-wrong-ids.yaml
cell_yaml 00:05.0 8086:100e >/tmp/pci-missing.yaml

insmod /modules/e1000.ko
if [ -e /sys/class/net/eth0 ] && [ "$(basename "$(readlink $dev/driver)")" = e1000 ]; then pass e1000-up; else fail e1000-up "$(ls /sys/class/net) driver '$(readlink $dev/driver)'"; fi
expect_rc insmod 0 insmod /warden.ko
expect_rc enable 0 warden enable /configs/system-qemu.cell
v=$(cat /sys/kernel/warden/cells/0/pci_devices | tr '\n' ' ')
if echo "$v" | grep -q '0000:00:02.0'; then pass sysfs-root; else fail sysfs-root "'$v'"; fi

# the validator (through the hypervisor's check) knows the system
# config's functions: a config fault, file:line, exit 1
expect_rc wrong-ids 1 warden cell create /tmp/pci-wrong-ids.yaml
expect_out wrong-ids-said "pci-wrong-ids.yaml:[0-9]*: PCI device 00:02.0: vendor id is 0x8087, but the system config has 0x8086"
if [ -e $dev ] && [ -e /sys/class/net/eth0 ] && ! echo "$OUT" | grep -q "taken from Linux"; then pass wrong-ids-kept; else fail wrong-ids-kept "$OUT"; fi
expect_rc missing 1 warden cell create /tmp/pci-missing.yaml
expect_out missing-said "pci-missing.yaml:[0-9]*: PCI device 00:05.0: is not in the system config's list of PCI devices"
# a function of the system config that Linux no longer has (removed by
# hand): Linux's side refuses, exit 2, nothing changed
echo 1 >/sys/bus/pci/devices/0000:00:03.0/remove
expect_rc linux-missing 2 warden cell create /configs/cells/pci-demo-edu.cell
expect_out linux-missing-said "0000:00:03.0 is not in Linux's PCI tree"
echo 1 >/sys/bus/pci/rescan

expect_rc create 0 warden cell create /tmp/pci-demo.yaml
expect_out create-said 'cell create: 0000:00:02.0 \(8086:100e, driver e1000\) taken from Linux for cell "pci-demo"'
# Linux keeps the function, without a driver, and binds none to it
if [ ! -e $dev/driver ] && [ ! -e /sys/class/net/eth0 ] && [ "$(cat $dev/driver_override)" = warden-cell ]; then pass removed; else fail removed "driver '$(readlink $dev/driver)', override '$(cat $dev/driver_override)', $(ls /sys/class/net | tr '\n' ' ')"; fi
echo 1 >/sys/bus/pci/rescan
v=$(od -An -tx1 -N4 $dev/config | tr -d ' \n')
if [ "$v" = ffffffff ]; then pass hidden-from-root; else fail hidden-from-root "root reads '$v' from 00:02.0's configuration space while the cell owns it"; fi
id=$(warden cell list | awk '$2 == "pci-demo" { print $1 }')
v=$(cat /sys/kernel/warden/cells/$id/pci_devices 2>&1)
if [ "$v" = "0000:00:02.0" ]; then pass sysfs-cell; else fail sysfs-cell "cell '$id': '$v'"; fi
if ! grep -q 0000:00:02.0 /sys/kernel/warden/cells/0/pci_devices; then pass sysfs-root-without; else fail sysfs-root-without "$(cat /sys/kernel/warden/cells/0/pci_devices | tr '\n' ' ')"; fi

expect_rc destroy 0 warden cell destroy pci-demo
expect_out destroy-said 'cell destroy: 0000:00:02.0 back in Linux \(driver e1000\)'
if [ -e $dev ] && [ "$(basename "$(readlink $dev/driver)")" = e1000 ]; then pass back; else fail back "driver '$(readlink $dev/driver)'"; fi
if [ -e /sys/class/net/eth0 ]; then pass eth0-back; else fail eth0-back "$(ls /sys/class/net | tr '\n' ' ')"; fi

expect_rc create-again 0 warden cell create /tmp/pci-demo.yaml
expect_rc disable 0 warden disable
expect_out disable-said 'disable: 0000:00:02.0 back in Linux \(driver e1000\)'
if [ -e /sys/class/net/eth0 ] && [ "$(basename "$(readlink $dev/driver)")" = e1000 ]; then pass back-after-disable; else fail back-after-disable "$(ls /sys/class/net | tr '\n' ' ')"; fi
