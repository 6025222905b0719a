# machines: qemu-svm qemu-svm-noiommu
# cpus: 2
# timeout: 300
# tests: all
. /tests/lib.sh
insmod /warden.ko
warden enable /configs/system-qemu.cell || echo ENABLE FAILED
warden cell create /configs/cells/tiny-demo.cell; warden cell load tiny-demo /inmates/tiny-demo.bin; warden cell start tiny-demo
w() { dmesg -c >/dev/null; insmod /wdtest.ko "$@" 2>/dev/null; dmesg | grep wdtest; }
w mode=msi bdf=00:03.0 dest=1
w mode=msi bdf=00:03.0 dest=0
w mode=bar bdf=00:03.0 addr=0x30000000
w mode=bar bdf=00:03.0 addr=0x1000000
w mode=bar bdf=00:03.0 addr=0xfec00000
w mode=bar bdf=00:03.0 addr=0xfea00000
w mode=bar bdf=00:02.0 addr=0xfea00000
warden cell destroy tiny-demo
warden disable
pass all
