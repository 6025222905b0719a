# machines: bochs-vmx
# cpus: 2
# timeout: 900
# tests: insmod enable trapped root-alive create load start demo destroy root-after disable
. /tests/lib.sh
expect_rc insmod 0 insmod /warden.ko
run warden enable /configs/zz-system-io.cell
echo "$OUT"
[ "$RC" = 0 ] && pass enable || fail enable "$OUT"
warden console | grep IOAPIC
if warden console | grep -q 'IOAPIC at 0xfec00000: .* trapped'; then pass trapped; else fail trapped "$(warden console | tail -3)"; fi
cat /proc/interrupts | head -20
sleep 1
pass root-alive
run warden cell create /configs/zz-uart.cell
echo "$OUT"; [ "$RC" = 0 ] && pass create || fail create "$OUT"
warden cell load uart-irq-demo /inmates/uart-irq-demo.bin -s "mode=xapic" -a 0xff000; [ $? = 0 ] && pass load || fail load x
warden cell start uart-irq-demo; [ $? = 0 ] && pass start || fail start x
sleep 5
warden cell list
warden cell stats uart-irq-demo
warden console | tail -n 12
pass demo
run warden cell destroy uart-irq-demo
echo "$OUT"; [ "$RC" = 0 ] && pass destroy || fail destroy "$OUT"
cat /proc/interrupts | head -20
pass root-after
expect_rc disable 0 warden disable
