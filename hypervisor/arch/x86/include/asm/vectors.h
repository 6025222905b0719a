/* SPDX-License-Identifier: GPL-2.0 */
/* Exception and interrupt vectors of x86 (SDM Vol. 3, 6.3.1, Table 6-1). */
#ifndef WARDEN_ASM_VECTORS_H
#define WARDEN_ASM_VECTORS_H

#define DB_VECTOR 1
#define NMI_VECTOR 2
#define UD_VECTOR 6
#define DF_VECTOR 8
#define GP_VECTOR 13
#define PF_VECTOR 14
#define AC_VECTOR 17
#define FIRST_EXTERNAL_VECTOR 32

#endif /* WARDEN_ASM_VECTORS_H */
