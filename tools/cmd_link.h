/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "warden link <subcommand>": the links of the running system.  cmd_link
 * dispatches through the table of subcommands in cmd_link.c: a
 * subcommand is a function below and one line there.
 */
#ifndef WARDEN_TOOLS_CMD_LINK_H
#define WARDEN_TOOLS_CMD_LINK_H

/* argv[0] is "link"; returns the exit status (warden.h). */
int cmd_link(int argc, char **argv);

/* The subcommands: argv[0] is the subcommand's name; each takes --help
 * and returns the exit status. */
int link_list_main(int argc, char **argv);

#endif /* WARDEN_TOOLS_CMD_LINK_H */
