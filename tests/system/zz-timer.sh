# emulator: bochs
# cpus: 2
# timeout: 900
# tests: done
. /tests/lib.sh
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
T=/sys/kernel/tracing
trace() { # label
	echo 0 > $T/tracing_on; echo > $T/trace
	echo 1 > $T/events/timer/tick_stop/enable
	echo 1 > $T/events/power/cpu_idle/enable
	echo 1 > $T/tracing_on; sleep 1; echo 0 > $T/tracing_on
	echo "=== $1 on=$(cat $T/tracing_on) lines=$(wc -l < $T/trace)"
	grep -o 'tick_stop: success=[0-9] dependency=[A-Z_]*' $T/trace | sort | uniq -c
	grep -v '^#' $T/trace | head -12
}
insmod /warden.ko
trace bare
warden enable /configs/system-bochs.cell
trace enabled
trace enabled2
warden disable
trace after
pass done
