# machines: qemu-svm bochs-vmx qemu-svm-noiommu
# cpus: 2
# timeout: 300
# tests: probe
. /tests/lib.sh
insmod /warden.ko
warden config create > /tmp/sys.yaml 2>/dev/null; sed -n '/pci_devices/,$p' /tmp/sys.yaml
pass probe
