/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The whole Warden ABI in one include. */
#ifndef WARDEN_WARDEN_H
#define WARDEN_WARDEN_H

#include "abi.h"
#include "access.h"
#include "cell.h"
#include "comm.h"
#include "config.h"
#include "error.h"
#include "hvheader.h"
#include "hypercall.h"
#include "load.h"
#include "stats.h"

#endif /* WARDEN_WARDEN_H */
