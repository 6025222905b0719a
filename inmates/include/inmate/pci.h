/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * PCI configuration space: the type 0 header registers, command bits,
 * capability IDs, the MSI and MSI-X capabilities' layout and the MSI-X
 * table entry that libinmate's pci.c and the inmates use (PCI Local Bus
 * Specification 3.0, chapter 6).
 */
#ifndef INMATE_PCI_H
#define INMATE_PCI_H

/* Configuration mechanism #1: address and data ports. */
#define PCI_CONFIG_ADDRESS 0xcf8
#define PCI_CONFIG_DATA 0xcfc
#define PCI_CONFIG_ENABLE 0x80000000u

/* A function as bus << 8 | device << 3 | function (16 bits). */
#define PCI_BDF(bus, dev, fn)                                                  \
	((uint16_t)(((bus)&0xff) << 8 | ((dev)&0x1f) << 3 | ((fn)&0x7)))
#define PCI_BUS(bdf) (((bdf) >> 8) & 0xff)
#define PCI_DEV(bdf) (((bdf) >> 3) & 0x1f)
#define PCI_FN(bdf) ((bdf)&0x7)

/* Header registers (offsets in configuration space). */
#define PCI_VENDOR_ID 0x00
#define PCI_DEVICE_ID 0x02
#define PCI_COMMAND 0x04
#define PCI_STATUS 0x06
#define PCI_REVISION 0x08 /* then prog-if 0x09, subclass 0x0a, class 0x0b */
#define PCI_CLASS 0x08	  /* 32 bits: class << 24 | sub << 16 | if << 8 | rev */
#define PCI_HEADER_TYPE 0x0e
#define PCI_BAR0 0x10 /* BAR n at 0x10 + 4 n, n = 0..5 (type 0 header) */
#define PCI_CAP_PTR 0x34
#define PCI_INT_LINE 0x3c
#define PCI_INT_PIN 0x3d /* 0 none, 1..4 INTA..INTD */

#define PCI_HEADER_MULTI_FN 0x80
#define PCI_HEADER_LAYOUT 0x7f /* 0 device, 1 PCI bridge, 2 CardBus */

#define PCI_CMD_IO 0x0001
#define PCI_CMD_MEMORY 0x0002
#define PCI_CMD_MASTER 0x0004
#define PCI_CMD_INTX_DISABLE 0x0400

#define PCI_STATUS_INTX 0x0008 /* the function asserts its INTx */
#define PCI_STATUS_CAP_LIST 0x0010

/* BAR low bits */
#define PCI_BAR_IO 0x1
#define PCI_BAR_MEM_TYPE 0x6 /* 0: 32-bit, 4: 64-bit (bits 2:1 = 2) */
#define PCI_BAR_MEM_64 0x4
#define PCI_BAR_PREFETCH 0x8

/* Capability IDs */
#define PCI_CAP_ID_PM 0x01
#define PCI_CAP_ID_MSI 0x05
#define PCI_CAP_ID_PCIE 0x10
#define PCI_CAP_ID_MSIX 0x11

/* MSI capability: offsets from the capability, message control bits */
#define PCI_MSI_CTRL 0x02
#define PCI_MSI_ADDR_LO 0x04
#define PCI_MSI_ADDR_HI 0x08 /* 64-bit capability only */
#define PCI_MSI_DATA_32 0x08 /* data of a 32-bit capability */
#define PCI_MSI_DATA_64 0x0c /* data of a 64-bit capability */
#define PCI_MSI_MASK_32 0x0c /* mask bits (per-vector masking), 32-bit */
#define PCI_MSI_MASK_64 0x10 /* mask bits, 64-bit */
#define PCI_MSI_CTRL_ENABLE 0x0001
#define PCI_MSI_CTRL_MME 0x0070 /* multiple message enable, log2 */
#define PCI_MSI_CTRL_64 0x0080
#define PCI_MSI_CTRL_MASKABLE 0x0100

/* MSI address (xAPIC format): physical destination, fixed delivery */
#define PCI_MSI_ADDRESS_BASE 0xfee00000u

/* MSI-X capability (PCI 3.0, 6.8.2): offsets from the capability */
#define PCI_MSIX_CTRL 0x02  /* message control (16 bits) */
#define PCI_MSIX_TABLE 0x04 /* table offset (bits 31:3) | BIR (bits 2:0) */
#define PCI_MSIX_PBA 0x08   /* pending bit array: offset | BIR, the same */
#define PCI_MSIX_CTRL_SIZE 0x07ff    /* table size - 1 */
#define PCI_MSIX_CTRL_MASKALL 0x4000 /* function mask */
#define PCI_MSIX_CTRL_ENABLE 0x8000
#define PCI_MSIX_BIR_MASK 0x7u

/* An MSI-X table entry: 16 bytes in the BAR, accessed as dwords */
#define PCI_MSIX_ENTRY_SIZE 16
#define PCI_MSIX_ENTRY_ADDR_LO 0x0
#define PCI_MSIX_ENTRY_ADDR_HI 0x4
#define PCI_MSIX_ENTRY_DATA 0x8
#define PCI_MSIX_ENTRY_CTRL 0xc	   /* vector control */
#define PCI_MSIX_ENTRY_MASKED 0x1u /* vector control bit 0: masked */

/* BAR types of struct pci_bar */
#define PCI_BAR_NONE 0
#define PCI_BAR_MEM32 1
#define PCI_BAR_MEM64 2
#define PCI_BAR_PIO 3

#endif /* INMATE_PCI_H */
