/* SPDX-License-Identifier: GPL-2.0 */
/* cmocka needs these headers before its own. */
#ifndef WARDEN_TESTS_CMOCKA_WRAP_H
#define WARDEN_TESTS_CMOCKA_WRAP_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#endif
