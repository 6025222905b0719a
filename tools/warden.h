/* SPDX-License-Identifier: GPL-2.0 */
/* Internal interfaces of the warden CLI. */
#ifndef WARDEN_TOOLS_WARDEN_H
#define WARDEN_TOOLS_WARDEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <warden/error.h>

struct cy_config;

#define WARDEN_VERSION "0.1.0"

/* Exit codes (documented in docs/cli.md and warden(8)). */
#define EXIT_OK 0
#define EXIT_CHECK_FAILED 1 /* a check or validation found problems */
#define EXIT_ERROR 2	    /* usage error, or a request failed */

/*
 * Open the control device.  On failure prints why (driver not loaded, not
 * root) to stderr and returns -1.
 */
int warden_open_device(void);

/*
 * Issue ioctl cmd with arg (which starts with a struct warden_error).  On
 * failure prints "warden: <what>: <sentence from the error channel>" to
 * stderr and returns -1; returns the ioctl's result otherwise.
 */
int warden_ioctl(int fd, unsigned long cmd, void *arg, const char *what);

/*
 * Like warden_ioctl; when the request fails with a recorded reason, where
 * (if not NULL) writes what to put before the sentence, e.g.
 * "configs/x.yaml:12: memory[1] ...: ..." instead of "memory[1] ...: ...":
 * where(ctx, record, buf, len) writes the whole line in buf.
 */
typedef void (*warden_describe_fn)(void *ctx, const struct warden_error *err,
				   char *buf, size_t len);
int warden_ioctl_describe(int fd, unsigned long cmd, void *arg,
			  const char *what, warden_describe_fn describe,
			  void *ctx);

/*
 * Load the config in file (YAML or compiled) into c and open /dev/warden:
 * the device's file descriptor, or -1 after saying why ("warden: <what>:
 * ..."), with c freed and *status the exit status: EXIT_CHECK_FAILED for
 * an invalid config (without the driver, the validator's errors too),
 * EXIT_ERROR for a file that cannot be read or no device.  On success the
 * caller frees c (cli_common.c).
 */
int config_open_device(struct cy_config *c, const char *file, const char *what,
		       int *status);

/*
 * A warden_describe_fn for refusals of a config loaded with cy_load_file
 * (ctx: the struct cy_config): the validator's sentence, with file:line
 * when the config is YAML and the rule is about the config (cli_common.c).
 */
void describe_config_refusal(void *ctx, const struct warden_error *e, char *buf,
			     size_t len);

/* The cell at index (0: root) into info; false when there is none
 * (cli_common.c). */
struct warden_cell_info;
bool cell_at(int fd, uint32_t index, struct warden_cell_info *info);

/* The cell id that arg names (a number or a name); 0 after a message
 * ("warden: <what>: no cell named ...") when there is none (cli_common.c). */
uint32_t resolve_cell(int fd, const char *arg, const char *what);

/* "cell create [--check] FILE": the exit status; the new cell's id in
 * *cell_id (cmd_cell_create.c). */
int cell_create_file(const char *file, bool check, uint32_t *cell_id);

/* Whether a console line belongs to cell name: its own output or the
 * hypervisor naming it (cmd_console.c). */
bool console_line_of(const char *line, const char *name);

/* "cell load" and "cell run" (cmd_cell_load.c). */
int cell_load_main(int argc, char **argv);
int cell_run_main(int argc, char **argv);
/* "cell linux": a stock Linux kernel in a new cell (cmd_cell_linux.c). */
int cell_linux_main(int argc, char **argv);

/* The PCI functions of every cell, as the driver lists them in sysfs,
 * at most max (cli_common.c): their number.  cell_functions: those of
 * cell id alone (a warning, and 0, when sysfs cannot say). */
struct pci_fn;
unsigned int cells_pci_functions(int fd, struct pci_fn *fns, unsigned int max,
				 const char *what);
unsigned int cell_functions(uint32_t id, struct pci_fn *fns, unsigned int max,
			    const char *what);

/* Names of the VM-exit counters by ABI id (stats.h), as status prints
 * them (cli_common.c). */
extern const char *const stat_names[];

int cmd_hardware(int argc, char **argv);
int cmd_cell(int argc, char **argv);
int cmd_enable(int argc, char **argv);
int cmd_disable(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_console(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_up(int argc, char **argv);
int cmd_down(int argc, char **argv);

/* A whole regular file into *data (malloc'd, the caller frees it) and
 * its length into *size; 0, or -1 after printing "warden: WHAT: cannot
 * read PATH: reason" (cli_common.c). */
int cli_read_file(const char *what, const char *path, void **data,
		  size_t *size);

/* A cell that "what" created but could not load or start: destroyed as
 * "warden cell destroy" does it (its PCI functions back to Linux), after
 * saying so (cmd_cell.c). */
void cell_destroy_again(const char *what, uint32_t id);

#endif /* WARDEN_TOOLS_WARDEN_H */
