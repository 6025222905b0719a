# SPDX-License-Identifier: GPL-2.0
# libFuzzer targets (clang, ASan + UBSan), outside "make test".
#
#   make fuzz [FUZZ_SECONDS=60]
#
# builds each tests/fuzz/fuzz_<name>.c, writes a seed corpus
# (tests/fuzz/mkcorpus.c: valid blobs for config_check; for config_yaml the
# YAML snippets of tests/unit/yaml_corpus.c and configs/) and runs each
# target FUZZ_SECONDS seconds on one core (with tests/fuzz/<name>.dict when
# there is one), then prints its executions and crashes.  New inputs go to
# $(BUILD)/tests/fuzz/corpus/<name>, crash inputs to .../artifacts/<name>/;
# "make fuzz" fails when there is one.  Replay: build/tests/fuzz/fuzz_<name>
# <file>.
#
#   make fuzz-guest [FUZZ_GUEST_SURVIVE=50000] [FUZZ_GUEST_FAIL=500]
#                   [FUZZ_GUEST_SEED=S]
#
# runs the guest-state fuzzer in a cell (the fuzz system group, which
# make test runs with 10000 and 100) longer; "make fuzz" runs it too.

FUZZ_OUT := $(BUILD)/tests/fuzz
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_TARGETS := config_check config_yaml
FUZZ_CFLAGS := -std=gnu11 -O1 -g -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all -Wall -Wextra -Werror -Iinclude \
	-Icommon/include -Itests/unit -Itools
FUZZ_DEPS_config_check := $(CONFIG_CHECK_SRCS) tests/unit/config_builder.c
# The YAML front end and what the CLI does with it; libyaml itself is the
# distribution's (not instrumented).
FUZZ_DEPS_config_yaml := $(CONFIG_LOAD_SRCS) $(ERRMSG_SRCS) \
	$(CONFIG_CHECK_SRCS) tests/unit/yaml_corpus.c tests/unit/yaml_syntax.c
FUZZ_LIBS_config_yaml := -lyaml
FUZZ_BINS := $(patsubst %,$(FUZZ_OUT)/fuzz_%,$(FUZZ_TARGETS))

FUZZ_GUEST_SURVIVE ?= 50000
FUZZ_GUEST_FAIL ?= 500
FUZZ_GUEST_SEED ?=

.PHONY: fuzz fuzz-build fuzz-guest fuzz-libfuzzer
fuzz-build: $(FUZZ_BINS) $(FUZZ_OUT)/mkcorpus

$(FUZZ_OUT)/fuzz_%: tests/fuzz/fuzz_%.c $$(FUZZ_DEPS_$$*) tests/unit/*.h \
		common/include/*.h $(CONFIG_CHECK_HDRS) include/warden/*.h tools/*.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $< $(FUZZ_DEPS_$*) $(FUZZ_LIBS_$*) -o $@

$(FUZZ_OUT)/mkcorpus: tests/fuzz/mkcorpus.c tests/unit/config_builder.c \
		tests/unit/yaml_corpus.c tests/unit/yaml_syntax.c tests/unit/*.h \
		include/warden/*.h
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -Itests/unit tests/fuzz/mkcorpus.c \
		tests/unit/config_builder.c tests/unit/yaml_corpus.c \
		tests/unit/yaml_syntax.c -o $@

fuzz: fuzz-libfuzzer fuzz-guest

fuzz-guest: all vm test-modules
	@WARDEN_FUZZ_SURVIVE=$(FUZZ_GUEST_SURVIVE) \
	WARDEN_FUZZ_FAIL=$(FUZZ_GUEST_FAIL) WARDEN_FUZZ_SEED=$(FUZZ_GUEST_SEED) \
	tests/run.py --build $(BUILD) --only fuzz --timeout-scale 10

fuzz-libfuzzer: fuzz-build
	@failed=0; \
	for t in $(FUZZ_TARGETS); do \
		seeds=$(FUZZ_OUT)/seeds/$$t; corpus=$(FUZZ_OUT)/corpus/$$t; \
		art=$(FUZZ_OUT)/artifacts/$$t; log=$(FUZZ_OUT)/fuzz_$$t.log; \
		rm -rf $$seeds $$art; mkdir -p $$seeds $$corpus $$art; \
		if [ $$t = config_yaml ]; then \
			$(FUZZ_OUT)/mkcorpus --yaml $$seeds || exit 1; \
			for f in $$(find configs -name '*.yaml'); do \
				cp $$f $$seeds/configs-$$(echo $$f | tr / -); \
			done; \
		else \
			$(FUZZ_OUT)/mkcorpus $$seeds || exit 1; \
		fi; \
		dict=; [ ! -f tests/fuzz/$$t.dict ] || dict=-dict=tests/fuzz/$$t.dict; \
		echo "fuzz_$$t: $(FUZZ_SECONDS) s, $$(ls $$seeds | wc -l) seeds"; \
		$(FUZZ_OUT)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) \
			-print_final_stats=1 -artifact_prefix=$$art/ $$dict \
			$$corpus $$seeds >$$log 2>&1; rc=$$?; \
		execs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $$log); \
		crashes=$$(ls $$art | wc -l); \
		echo "fuzz_$$t: $${execs:-?} executions, $$crashes crashes," \
			"corpus $$(ls $$corpus | wc -l) inputs (log $$log)"; \
		if [ $$rc -ne 0 ] || [ $$crashes -ne 0 ]; then \
			grep -A5 '^==[0-9]*==ERROR\|runtime error' $$log | head -20; \
			ls $$art/*; failed=1; \
		fi; \
	done; exit $$failed
