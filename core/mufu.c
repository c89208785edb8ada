// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The special-function unit of an H100, bit for bit: MUFU.RCP, RSQ,
 * SQRT, EX2, LG2, SIN, COS and TANH as the hardware computes them, so
 * that the approximate PTX instructions give the H100's results.
 *
 * Each function is one quadratic interpolator, as NVIDIA's multifunction
 * interpolator is described (Oberman and Siu, ARITH 2005):
 * the top bits of the fixed-point argument pick a segment, whose table
 * row holds C0, C1 and C2, and the low bits t give
 *
 *	P = C0 + C1 * t + C2 * sq(t)
 *
 * where sq() is a truncated squarer: of the partial products of t * t
 * (bit i alone in column 2i, bits i < j in column i + j + 1) the columns
 * below a cut are left out, carries and all. P is exact; the result is P
 * with its low bits dropped (truncation: the tables carry the rounding).
 *
 * How the tables were found: the H100 computed every input of one or two
 * binades of each function (tests/unit/data/h100_mufu.cu); a fit per
 * segment against (1, t, sq(t)) for each candidate cut gave C1 and C2
 * within one unit, a search of the integers nearby gave the C0 range
 * that reproduces every result of the segment, and only one cut made
 * every segment of a function fit. Where the data leaves C0's low bits
 * free, any value in the range gives the same results; the rows hold one.
 * The whole input range of every function was then compared with the
 * H100's: equal everywhere (tests/unit/data/h100_mufu.log; a digest of
 * the H100's results is h100_mufu_digest.txt.gz there).
 *
 * Subnormal inputs are zeros of their sign and subnormal results are
 * flushed, NaN gives 0x7fffffff: what MUFU does. The non-ftz PTX forms
 * scale around it (core/fp.c). Integer arithmetic only.
 */
#include "mufu.h"

#define SIGN 0x80000000U
#define MANT 0x007fffffU
#define INF 0x7f800000U
#define QNAN 0x7fffffffU

struct vgpu_mufu_seg {
	s64 c0;
	s32 c1, c2;
};

/* 1/x on [1, 2): 128 segments of 2^16 mantissas, result ulp 2^-15 of P */
static const struct vgpu_mufu_seg vgpu_mufu_rcp_tab[128] = {
	{ 0x80000007e7, -65534,  1013 },
	{ 0x7f01fc47e7, -64522,   989 },
	{ 0x7e07e0c7e7, -63533,   966 },
	{ 0x7d1196a7e7, -62567,   945 },
	{ 0x7c1f07c7e7, -61622,   923 },
	{ 0x7b301f07e7, -60699,   902 },
	{ 0x7a44c707e7, -59797,   883 },
	{ 0x795ceb47e7, -58914,   863 },
	{ 0x78787887e7, -58051,   845 },
	{ 0x77975bc7e7, -57207,   827 },
	{ 0x76b98227e7, -56381,   809 },
	{ 0x75ded967e7, -55572,   791 },
	{ 0x750750a7e7, -54781,   774 },
	{ 0x7432d687e7, -54007,   758 },
	{ 0x73615a67e7, -53249,   742 },
	{ 0x7292cc47e7, -52507,   727 },
	{ 0x71c71ca7e7, -51780,   711 },
	{ 0x70fe3c47e7, -51068,   696 },
	{ 0x70381c47e7, -50371,   682 },
	{ 0x6f74ae47e7, -49688,   669 },
	{ 0x6eb3e467e7, -49019,   656 },
	{ 0x6df5b127e7, -48363,   642 },
	{ 0x6d3a06e7e7, -47721,   631 },
	{ 0x6c80d947e7, -47091,   618 },
	{ 0x6bca1b27e7, -46473,   605 },
	{ 0x6b15c0c7e7, -45868,   594 },
	{ 0x6a63bdc7e7, -45274,   582 },
	{ 0x69b406c7e7, -44692,   572 },
	{ 0x690690c7e7, -44121,   561 },
	{ 0x685b5027e7, -43560,   549 },
	{ 0x67b23aa7e7, -43011,   540 },
	{ 0x670b4567e7, -42471,   529 },
	{ 0x666666a7e7, -41942,   519 },
	{ 0x65c39427e7, -41423,   510 },
	{ 0x6522c407e7, -40913,   501 },
	{ 0x6483ed67e7, -40412,   490 },
	{ 0x63e70667e7, -39921,   482 },
	{ 0x634c0687e7, -39439,   474 },
	{ 0x62b2e487e7, -38965,   465 },
	{ 0x621b9827e7, -38500,   457 },
	{ 0x618618a7e7, -38043,   449 },
	{ 0x60f25e27e7, -37594,   441 },
	{ 0x606060a7e7, -37153,   433 },
	{ 0x5fd01847e7, -36720,   426 },
	{ 0x5f417d47e7, -36294,   418 },
	{ 0x5eb48867e7, -35876,   412 },
	{ 0x5e293247e7, -35464,   403 },
	{ 0x5d9f73c7e7, -35060,   397 },
	{ 0x5d174627e7, -34663,   390 },
	{ 0x5c90a227e7, -34272,   383 },
	{ 0x5c0b8187e7, -33888,   377 },
	{ 0x5b87de07e7, -33511,   371 },
	{ 0x5b05b0a7e7, -33140,   366 },
	{ 0x5a84f387e7, -32774,   358 },
	{ 0x5a05a087e7, -32415,   353 },
	{ 0x5987b1c7e7, -32062,   348 },
	{ 0x590b21a7e7, -31714,   341 },
	{ 0x588fea47e7, -31373,   337 },
	{ 0x581605c7e7, -31036,   331 },
	{ 0x579d6f07e7, -30705,   326 },
	{ 0x572620e7e7, -30379,   320 },
	{ 0x56b01607e7, -30059,   316 },
	{ 0x563b4927e7, -29743,   310 },
	{ 0x55c7b527e7, -29432,   305 },
	{ 0x55555587e7, -29127,   302 },
	{ 0x54e42587e7, -28826,   297 },
	{ 0x54742007e7, -28529,   291 },
	{ 0x54054087e7, -28237,   287 },
	{ 0x539782e7e7, -27950,   283 },
	{ 0x532ae247e7, -27667,   279 },
	{ 0x52bf5ac7e7, -27388,   274 },
	{ 0x5254e7e7e7, -27114,   271 },
	{ 0x51eb8567e7, -26843,   266 },
	{ 0x51832f67e7, -26577,   263 },
	{ 0x511be1c7e7, -26314,   258 },
	{ 0x50b598c7e7, -26056,   256 },
	{ 0x505050a7e7, -25801,   251 },
	{ 0x4fec0547e7, -25550,   248 },
	{ 0x4f88b347e7, -25302,   243 },
	{ 0x4f2656c7e7, -25058,   240 },
	{ 0x4ec4ec87e7, -24818,   237 },
	{ 0x4e647107e7, -24581,   233 },
	{ 0x4e04e0a7e7, -24348,   231 },
	{ 0x4da63827e7, -24117,   226 },
	{ 0x4d487427e7, -23890,   223 },
	{ 0x4ceb91a7e7, -23667,   222 },
	{ 0x4c8f8d67e7, -23446,   218 },
	{ 0x4c346447e7, -23228,   214 },
	{ 0x4bda1347e7, -23014,   212 },
	{ 0x4b809767e7, -22802,   208 },
	{ 0x4b27ed67e7, -22593,   205 },
	{ 0x4ad01307e7, -22388,   204 },
	{ 0x4a7904e7e7, -22184,   199 },
	{ 0x4a22c087e7, -21984,   197 },
	{ 0x49cd4327e7, -21787,   196 },
	{ 0x49788a07e7, -21592,   193 },
	{ 0x49249287e7, -21399,   189 },
	{ 0x48d15a27e7, -21209,   186 },
	{ 0x487ede67e7, -21022,   184 },
	{ 0x482d1c67e7, -20837,   182 },
	{ 0x47dc1247e7, -20655,   180 },
	{ 0x478bbd27e7, -20475,   178 },
	{ 0x473c1ae7e7, -20297,   175 },
	{ 0x46ed2947e7, -20122,   173 },
	{ 0x469ee5c7e7, -19949,   171 },
	{ 0x46514e27e7, -19778,   169 },
	{ 0x46046087e7, -19609,   166 },
	{ 0x45b81a67e7, -19443,   165 },
	{ 0x456c79c7e7, -19278,   161 },
	{ 0x45217c87e7, -19116,   160 },
	{ 0x44d72087e7, -18956,   159 },
	{ 0x448d63e7e7, -18797,   155 },
	{ 0x44444487e7, -18641,   154 },
	{ 0x43fbc087e7, -18487,   153 },
	{ 0x43b3d5e7e7, -18334,   150 },
	{ 0x436c8307e7, -18184,   149 },
	{ 0x4325c587e7, -18035,   147 },
	{ 0x42df9be7e7, -17888,   145 },
	{ 0x429a0487e7, -17743,   143 },
	{ 0x4254fd07e7, -17600,   143 },
	{ 0x42108467e7, -17458,   140 },
	{ 0x41cc9887e7, -17318,   138 },
	{ 0x418937a7e7, -17180,   137 },
	{ 0x41466027e7, -17043,   135 },
	{ 0x41041087e7, -16908,   133 },
	{ 0x40c24727e7, -16775,   132 },
	{ 0x40810227e7, -16643,   131 },
	{ 0x40404067e7, -16513,   130 },
};

/* 1/sqrt(x): 64 segments on [1, 2), then 64 on [2, 4), of 2^17 mantissas */
static const struct vgpu_mufu_seg vgpu_mufu_rsq_tab[128] = {
	{ 0xffffffbfff, -65531,  3016 },
	{ 0xfe05ebbfff, -64024,  2900 },
	{ 0xfc17643fff, -62575,  2792 },
	{ 0xfa33f93fff, -61179,  2688 },
	{ 0xf85b427fff, -59835,  2592 },
	{ 0xf68cdbbfff, -58539,  2500 },
	{ 0xf4c866bfff, -57289,  2412 },
	{ 0xf30d89bfff, -56083,  2328 },
	{ 0xf15bef3fff, -54919,  2248 },
	{ 0xefb344ffff, -53794,  2172 },
	{ 0xee133d7fff, -52708,  2104 },
	{ 0xec7b903fff, -51657,  2032 },
	{ 0xeaebf4ffff, -50641,  1968 },
	{ 0xe96429ffff, -49658,  1904 },
	{ 0xe7e3ed3fff, -48706,  1844 },
	{ 0xe66b027fff, -47784,  1784 },
	{ 0xe4f92dffff, -46891,  1732 },
	{ 0xe38e393fff, -46026,  1680 },
	{ 0xe229ec7fff, -45186,  1628 },
	{ 0xe0cc15bfff, -44372,  1580 },
	{ 0xdf7482ffff, -43582,  1532 },
	{ 0xde2304bfff, -42815,  1488 },
	{ 0xdcd76dbfff, -42071,  1448 },
	{ 0xdb9192bfff, -41348,  1408 },
	{ 0xda5149bfff, -40645,  1368 },
	{ 0xd9166b3fff, -39962,  1328 },
	{ 0xd7e0cf3fff, -39298,  1292 },
	{ 0xd6b0517fff, -38652,  1256 },
	{ 0xd584cdffff, -38023,  1220 },
	{ 0xd45e227fff, -37412,  1192 },
	{ 0xd33c2d7fff, -36816,  1160 },
	{ 0xd21ed07fff, -36237,  1132 },
	{ 0xd105ebffff, -35672,  1100 },
	{ 0xcff1623fff, -35122,  1072 },
	{ 0xcee115ffff, -34586,  1048 },
	{ 0xcdd4ed7fff, -34063,  1020 },
	{ 0xcccccd3fff, -33553,   992 },
	{ 0xcbc89b7fff, -33056,   968 },
	{ 0xcac83fffff, -32571,   944 },
	{ 0xc9cba1bfff, -32098,   924 },
	{ 0xc8d2ab7fff, -31636,   900 },
	{ 0xc7dd44ffff, -31185,   880 },
	{ 0xc6eb5a3fff, -30745,   860 },
	{ 0xc5fcd5bfff, -30315,   840 },
	{ 0xc511a33fff, -29895,   820 },
	{ 0xc429aeffff, -29485,   804 },
	{ 0xc344e6ffff, -29084,   784 },
	{ 0xc263377fff, -28691,   764 },
	{ 0xc1848fffff, -28308,   748 },
	{ 0xc0a8de3fff, -27933,   732 },
	{ 0xbfd0123fff, -27566,   716 },
	{ 0xbefa1bffff, -27208,   704 },
	{ 0xbe26ebbfff, -26857,   688 },
	{ 0xbd5671bfff, -26513,   672 },
	{ 0xbc889fbfff, -26177,   660 },
	{ 0xbbbd66ffff, -25848,   648 },
	{ 0xbaf4ba7fff, -25525,   632 },
	{ 0xba2e8c3fff, -25209,   616 },
	{ 0xb96aceffff, -24900,   604 },
	{ 0xb8a975bfff, -24597,   592 },
	{ 0xb7ea747fff, -24300,   580 },
	{ 0xb72dbe7fff, -24009,   572 },
	{ 0xb67349ffff, -23724,   560 },
	{ 0xb5bb09bfff, -23444,   548 },
	{ 0xb504f2bfff, -46337,  2132 },
	{ 0xb39f18ffff, -45272,  2052 },
	{ 0xb24169ffff, -44247,  1972 },
	{ 0xb0eb95bfff, -43260,  1900 },
	{ 0xaf9d52ffff, -42310,  1836 },
	{ 0xae565b7fff, -41393,  1768 },
	{ 0xad166cbfff, -40510,  1708 },
	{ 0xabdd457fff, -39657,  1648 },
	{ 0xaaaaaaffff, -38834,  1592 },
	{ 0xa97e623fff, -38038,  1536 },
	{ 0xa85835bfff, -37270,  1484 },
	{ 0xa737efbfff, -36527,  1436 },
	{ 0xa61d5fbfff, -35809,  1392 },
	{ 0xa50854ffff, -35113,  1344 },
	{ 0xa3f8a23fff, -34440,  1304 },
	{ 0xa2ee1dbfff, -33789,  1264 },
	{ 0xa1e89b3fff, -33157,  1224 },
	{ 0xa0e7f4bfff, -32545,  1188 },
	{ 0x9fec047fff, -31952,  1152 },
	{ 0x9ef4a4bfff, -31376,  1116 },
	{ 0x9e01b2bfff, -30817,  1084 },
	{ 0x9d130e3fff, -30275,  1052 },
	{ 0x9c28963fff, -29749,  1024 },
	{ 0x9b422c3fff, -29237,   992 },
	{ 0x9a5fb23fff, -28740,   964 },
	{ 0x99810bffff, -28257,   940 },
	{ 0x98a61ebfff, -27788,   916 },
	{ 0x97ced07fff, -27331,   888 },
	{ 0x96fb063fff, -26887,   868 },
	{ 0x962aa9ffff, -26454,   840 },
	{ 0x955da23fff, -26033,   820 },
	{ 0x9493da3fff, -25623,   796 },
	{ 0x93cd3a3fff, -25224,   780 },
	{ 0x9309af7fff, -24835,   760 },
	{ 0x9249253fff, -24456,   740 },
	{ 0x918b86ffff, -24086,   720 },
	{ 0x90d0c2ffff, -23726,   704 },
	{ 0x9018c6bfff, -23374,   684 },
	{ 0x8f6380ffff, -23031,   668 },
	{ 0x8eb0e0ffff, -22697,   652 },
	{ 0x8e00d57fff, -22370,   636 },
	{ 0x8d534fbfff, -22051,   620 },
	{ 0x8ca83fbfff, -21740,   608 },
	{ 0x8bff97bfff, -21436,   592 },
	{ 0x8b5947ffff, -21139,   580 },
	{ 0x8ab543ffff, -20849,   568 },
	{ 0x8a137e3fff, -20565,   552 },
	{ 0x8973e83fff, -20288,   544 },
	{ 0x88d6773fff, -20017,   532 },
	{ 0x883b1ebfff, -19752,   520 },
	{ 0x87a1d2ffff, -19492,   504 },
	{ 0x870a87bfff, -19239,   496 },
	{ 0x867531ffff, -18991,   488 },
	{ 0x85e1c83fff, -18748,   476 },
	{ 0x85503dffff, -18510,   468 },
	{ 0x84c08b7fff, -18277,   456 },
	{ 0x8432a53fff, -18049,   448 },
	{ 0x83a6827fff, -17826,   440 },
	{ 0x831c1a3fff, -17607,   428 },
	{ 0x8293627fff, -17393,   420 },
	{ 0x820c52ffff, -17183,   412 },
	{ 0x8186e2bfff, -16977,   404 },
	{ 0x81030a3fff, -16775,   396 },
	{ 0x8080c23fff, -16578,   388 },
};

/* sqrt(x): as rsq's */
static const struct vgpu_mufu_seg vgpu_mufu_sqrt_tab[128] = {
	{ 0x10000007fff,  65535, -1012 },
	{ 0x101fe047fff,  65029,  -988 },
	{ 0x103f81fffff,  64534,  -964 },
	{ 0x105ee697fff,  64051,  -944 },
	{ 0x107e0f6ffff,  63578,  -922 },
	{ 0x109cfdd7fff,  63116,  -904 },
	{ 0x10bbb30ffff,  62664,  -886 },
	{ 0x10da3057fff,  62221,  -868 },
	{ 0x10f876d7fff,  61787,  -848 },
	{ 0x111687affff,  61363,  -834 },
	{ 0x113463fffff,  60947,  -816 },
	{ 0x11520cd7fff,  60539,  -798 },
	{ 0x116f833ffff,  60139,  -782 },
	{ 0x118cc827fff,  59748,  -770 },
	{ 0x11a9dc97fff,  59363,  -752 },
	{ 0x11c6c16ffff,  58987,  -740 },
	{ 0x11e3779ffff,  58617,  -726 },
	{ 0x12000007fff,  58254,  -714 },
	{ 0x121c5b77fff,  57898,  -702 },
	{ 0x12388ac7fff,  57548,  -688 },
	{ 0x12548ebffff,  57204,  -674 },
	{ 0x12706827fff,  56867,  -664 },
	{ 0x128c17bffff,  56535,  -650 },
	{ 0x12a79e3ffff,  56209,  -638 },
	{ 0x12c2fc5ffff,  55889,  -630 },
	{ 0x12de32cffff,  55574,  -618 },
	{ 0x12f94237fff,  55264,  -608 },
	{ 0x13142b37fff,  54960,  -598 },
	{ 0x132eee7ffff,  54660,  -588 },
	{ 0x13498c9ffff,  54366,  -580 },
	{ 0x13640637fff,  54076,  -570 },
	{ 0x137e5bdffff,  53790,  -560 },
	{ 0x13988e17fff,  53510,  -554 },
	{ 0x13b29d87fff,  53233,  -544 },
	{ 0x13cc8a9ffff,  52961,  -536 },
	{ 0x13e655f7fff,  52693,  -530 },
	{ 0x14000007fff,  52429,  -522 },
	{ 0x14198957fff,  52168,  -510 },
	{ 0x1432f257fff,  51912,  -504 },
	{ 0x144c3b87fff,  51660,  -498 },
	{ 0x14656567fff,  51410,  -488 },
	{ 0x147e705ffff,  51165,  -484 },
	{ 0x14975cdffff,  50923,  -476 },
	{ 0x14b02b57fff,  50685,  -472 },
	{ 0x14c8dc37fff,  50449,  -462 },
	{ 0x14e16fdffff,  50218,  -458 },
	{ 0x14f9e6bffff,  49989,  -452 },
	{ 0x1512413ffff,  49763,  -444 },
	{ 0x152a7faffff,  49541,  -442 },
	{ 0x1542a27ffff,  49321,  -434 },
	{ 0x155aaa07fff,  49104,  -428 },
	{ 0x1572969ffff,  48890,  -422 },
	{ 0x158a68affff,  48678,  -414 },
	{ 0x15a22077fff,  48471,  -414 },
	{ 0x15b9be67fff,  48264,  -404 },
	{ 0x15d142bffff,  48061,  -400 },
	{ 0x15e8add7fff,  47861,  -398 },
	{ 0x16000007fff,  47662,  -388 },
	{ 0x16173997fff,  47467,  -388 },
	{ 0x162e5ad7fff,  47273,  -380 },
	{ 0x1645640ffff,  47082,  -376 },
	{ 0x165c5587fff,  46894,  -374 },
	{ 0x16732f97fff,  46707,  -368 },
	{ 0x1689f277fff,  46523,  -364 },
	{ 0x16a09e6ffff,  92680, -1428 },
	{ 0x16cdb2c7fff,  91964, -1394 },
	{ 0x16fa6ea7fff,  91266, -1368 },
	{ 0x1726d41ffff,  90582, -1336 },
	{ 0x1752e517fff,  89914, -1310 },
	{ 0x177ea367fff,  89260, -1282 },
	{ 0x17aa10d7fff,  88620, -1252 },
	{ 0x17d52f27fff,  87994, -1226 },
	{ 0x18000007fff,  87380, -1198 },
	{ 0x182a8507fff,  86780, -1176 },
	{ 0x1854bfb7fff,  86192, -1154 },
	{ 0x187eb19ffff,  85616, -1134 },
	{ 0x18a85c2ffff,  85050, -1108 },
	{ 0x18d1c0c7fff,  84496, -1088 },
	{ 0x18fae0c7fff,  83952, -1062 },
	{ 0x1923bd87fff,  83420, -1048 },
	{ 0x194c5847fff,  82896, -1024 },
	{ 0x1974b237fff,  82384, -1010 },
	{ 0x199ccc9ffff,  81880,  -992 },
	{ 0x19c4a89ffff,  81384,  -968 },
	{ 0x19ec4757fff,  80898,  -952 },
	{ 0x1a13a9cffff,  80422,  -940 },
	{ 0x1a3ad137fff,  79952,  -918 },
	{ 0x1a61be77fff,  79492,  -906 },
	{ 0x1a88729ffff,  79038,  -886 },
	{ 0x1aaeee9ffff,  78594,  -878 },
	{ 0x1ad5336ffff,  78156,  -862 },
	{ 0x1afb41f7fff,  77726,  -850 },
	{ 0x1b211b1ffff,  77302,  -834 },
	{ 0x1b46bfc7fff,  76884,  -816 },
	{ 0x1b6c30bffff,  76474,  -802 },
	{ 0x1b916edffff,  76072,  -798 },
	{ 0x1bb67aeffff,  75674,  -782 },
	{ 0x1bdb55bffff,  75282,  -766 },
	{ 0x1c000007fff,  74898,  -758 },
	{ 0x1c247a8ffff,  74518,  -744 },
	{ 0x1c48c607fff,  74146,  -740 },
	{ 0x1c6ce327fff,  73778,  -728 },
	{ 0x1c90d2a7fff,  73414,  -712 },
	{ 0x1cb4951ffff,  73058,  -706 },
	{ 0x1cd82b47fff,  72706,  -696 },
	{ 0x1cfb95c7fff,  72358,  -682 },
	{ 0x1d1ed527fff,  72016,  -672 },
	{ 0x1d41ea17fff,  71678,  -660 },
	{ 0x1d64d527fff,  71346,  -654 },
	{ 0x1d8796effff,  71018,  -646 },
	{ 0x1daa2ff7fff,  70694,  -634 },
	{ 0x1dcca0d7fff,  70376,  -632 },
	{ 0x1deeea17fff,  70060,  -618 },
	{ 0x1e110c3ffff,  69750,  -612 },
	{ 0x1e3307cffff,  69444,  -606 },
	{ 0x1e54dd57fff,  69140,  -594 },
	{ 0x1e768d3ffff,  68842,  -588 },
	{ 0x1e981817fff,  68548,  -586 },
	{ 0x1eb97e4ffff,  68256,  -574 },
	{ 0x1edac05ffff,  67968,  -564 },
	{ 0x1efbdeb7fff,  67686,  -564 },
	{ 0x1f1cd9d7fff,  67404,  -550 },
	{ 0x1f3db21ffff,  67128,  -546 },
	{ 0x1f5e6807fff,  66854,  -538 },
	{ 0x1f7efbf7fff,  66584,  -532 },
	{ 0x1f9f6e4ffff,  66318,  -528 },
	{ 0x1fbfbf87fff,  66054,  -522 },
	{ 0x1fdfeff7fff,  65794,  -518 },
};

/* 2^f - 1, f on [0, 1): 64 segments of 2^17, units 2^-38 */
static const struct vgpu_mufu_seg vgpu_mufu_ex2_tab[64] = {
	{ 0x00000077e2,  22713,   494 },
	{ 0x00b26957e2,  22960,   501 },
	{ 0x0166c3d7e2,  23210,   506 },
	{ 0x021d14b7e2,  23463,   511 },
	{ 0x02d56257e2,  23718,   518 },
	{ 0x038fb137e2,  23977,   521 },
	{ 0x044c0797e2,  24238,   527 },
	{ 0x050a6b37e2,  24502,   532 },
	{ 0x05cae197e2,  24768,   541 },
	{ 0x068d7037e2,  25038,   546 },
	{ 0x07521d17e2,  25311,   551 },
	{ 0x0818eeb7e2,  25586,   559 },
	{ 0x08e1ea37e2,  25865,   564 },
	{ 0x09ad1617e2,  26147,   568 },
	{ 0x0a7a7877e2,  26431,   577 },
	{ 0x0b4a1737e2,  26719,   583 },
	{ 0x0c1bf8b7e2,  27010,   589 },
	{ 0x0cf02357e2,  27304,   596 },
	{ 0x0dc69d37e2,  27602,   600 },
	{ 0x0e9f6d57e2,  27902,   609 },
	{ 0x0f7a9997e2,  28206,   615 },
	{ 0x10582917e2,  28513,   622 },
	{ 0x113821d7e2,  28824,   627 },
	{ 0x121a8b37e2,  29138,   633 },
	{ 0x12ff6bb7e2,  29455,   641 },
	{ 0x13e6ca37e2,  29776,   647 },
	{ 0x14d0adb7e2,  30100,   655 },
	{ 0x15bd1d57e2,  30428,   661 },
	{ 0x16ac1fd7e2,  30759,   670 },
	{ 0x179dbcb7e2,  31094,   677 },
	{ 0x1891fb57e2,  31432,   686 },
	{ 0x1988e277e2,  31775,   691 },
	{ 0x1a8279f7e2,  32121,   699 },
	{ 0x1b7ec977e2,  32471,   705 },
	{ 0x1c7dd837e2,  32824,   715 },
	{ 0x1d7fadb7e2,  33182,   721 },
	{ 0x1e845237e2,  33543,   730 },
	{ 0x1f8bcd57e2,  33908,   739 },
	{ 0x209626f7e2,  34277,   748 },
	{ 0x21a366d7e2,  34651,   753 },
	{ 0x22b39577e2,  35028,   763 },
	{ 0x23c6bad7e2,  35409,   773 },
	{ 0x24dcdf57e2,  35795,   779 },
	{ 0x25f60af7e2,  36185,   787 },
	{ 0x27124677e2,  36579,   796 },
	{ 0x28319a57e2,  36977,   806 },
	{ 0x29540f37e2,  37380,   813 },
	{ 0x2a79adb7e2,  37787,   822 },
	{ 0x2ba27ef7e2,  38198,   833 },
	{ 0x2cce8b57e2,  38614,   842 },
	{ 0x2dfddc37e2,  39035,   849 },
	{ 0x2f307ad7e2,  39460,   858 },
	{ 0x30667017e2,  39889,   870 },
	{ 0x319fc557e2,  40324,   877 },
	{ 0x32dc83f7e2,  40763,   887 },
	{ 0x341cb5b7e2,  41207,   896 },
	{ 0x35606417e2,  41655,   909 },
	{ 0x36a79897e2,  42109,   917 },
	{ 0x37f25d57e2,  42568,   925 },
	{ 0x3940bc17e2,  43031,   938 },
	{ 0x3a92bf17e2,  43500,   946 },
	{ 0x3be87057e2,  43973,   959 },
	{ 0x3d41d9f7e2,  44452,   969 },
	{ 0x3e9f0697e2,  44936,   980 },
};

/* log2(1 + m), m on [0, 1): 64 segments of 2^17, units 2^-38 */
static const struct vgpu_mufu_seg vgpu_mufu_lg2_tab[64] = {
	{ 0x0000007344,  47272, -1454 },
	{ 0x016e79a345,  46545, -1410 },
	{ 0x02d75b0344,  45840, -1370 },
	{ 0x043acea344,  45156, -1330 },
	{ 0x0598fe5344,  44492, -1292 },
	{ 0x06f2112345,  43847, -1254 },
	{ 0x08462cc345,  43221, -1220 },
	{ 0x0995753344,  42612, -1184 },
	{ 0x0ae00db344,  42020, -1152 },
	{ 0x0c26165344,  41444, -1118 },
	{ 0x0d67af8344,  40884, -1088 },
	{ 0x0ea4f79345,  40339, -1060 },
	{ 0x0fde0bc345,  39809, -1036 },
	{ 0x111307f344,  39292, -1008 },
	{ 0x124407f344,  38788,  -982 },
	{ 0x1371254345,  38297,  -958 },
	{ 0x149a789344,  37818,  -932 },
	{ 0x15c01ab345,  37351,  -910 },
	{ 0x16e2225344,  36896,  -890 },
	{ 0x1800a5c345,  36451,  -866 },
	{ 0x191bbaf344,  36018,  -850 },
	{ 0x1a33763344,  35594,  -828 },
	{ 0x1b47ec1344,  35180,  -808 },
	{ 0x1c592fe340,  34776,  -792 },
	{ 0x1d67542344,  34380,  -770 },
	{ 0x1e726ad344,  33994,  -754 },
	{ 0x1f7a85a340,  33616,  -736 },
	{ 0x207fb55345,  33247,  -722 },
	{ 0x21820a2344,  32886,  -708 },
	{ 0x2281945344,  32532,  -692 },
	{ 0x237e62a344,  32186,  -678 },
	{ 0x247883e345,  31847,  -662 },
	{ 0x257006d344,  31516,  -652 },
	{ 0x2664f90345,  31191,  -638 },
	{ 0x2757685344,  30872,  -622 },
	{ 0x2847617345,  30561,  -614 },
	{ 0x2934f10345,  30255,  -600 },
	{ 0x2a20236345,  29955,  -586 },
	{ 0x2b0904d344,  29662,  -578 },
	{ 0x2befa03344,  29374,  -566 },
	{ 0x2cd4014345,  29091,  -552 },
	{ 0x2db6331344,  28814,  -542 },
	{ 0x2e96400344,  28542,  -532 },
	{ 0x2f74320344,  28276,  -524 },
	{ 0x305013d344,  28014,  -514 },
	{ 0x3129ef1345,  27757,  -506 },
	{ 0x3201cc9345,  27505,  -498 },
	{ 0x32d7b60345,  27257,  -488 },
	{ 0x33abb44345,  27013,  -476 },
	{ 0x347dd03344,  26774,  -468 },
	{ 0x354e124344,  26540,  -464 },
	{ 0x361c826345,  26309,  -454 },
	{ 0x36e9296344,  26082,  -446 },
	{ 0x37b40e7345,  25859,  -438 },
	{ 0x387d39b340,  25640,  -432 },
	{ 0x3944b21344,  25424,  -422 },
	{ 0x3a0a7ef345,  25213,  -418 },
	{ 0x3acea7d344,  25004,  -408 },
	{ 0x3b9133a345,  24799,  -402 },
	{ 0x3c52288344,  24598,  -398 },
	{ 0x3d118dd345,  24399,  -390 },
	{ 0x3dcf693344,  24204,  -384 },
	{ 0x3e8bc15344,  24012,  -378 },
	{ 0x3f469c4345,  23823,  -372 },
};

/* sin(pi/2 v), v on [0, 1): 64 segments of 2^17, units 2^-37 */
static const struct vgpu_mufu_seg vgpu_mufu_sin_tab[64] = {
	{ 0x0000000000,  25737,   -14 },
	{ 0x00c90a7000,  25730,   -48 },
	{ 0x0191f64000,  25706,   -76 },
	{ 0x025aa3e000,  25668,  -110 },
	{ 0x0322f4a000,  25613,  -137 },
	{ 0x03eac9a000,  25544,  -171 },
	{ 0x04b203d000,  25459,  -201 },
	{ 0x057884e000,  25358,  -229 },
	{ 0x063e2dd000,  25243,  -262 },
	{ 0x0702e08000,  25112,  -292 },
	{ 0x07c67e4000,  24966,  -322 },
	{ 0x0888e92000,  24805,  -352 },
	{ 0x094a02f000,  24629,  -381 },
	{ 0x0a09ae5000,  24438,  -410 },
	{ 0x0ac7cd1000,  24233,  -441 },
	{ 0x0b84426000,  24013,  -470 },
	{ 0x0c3ef15000,  23778,  -497 },
	{ 0x0cf7bcb000,  23529,  -525 },
	{ 0x0dae87f000,  23266,  -553 },
	{ 0x0e63374000,  22989,  -581 },
	{ 0x0f15aea000,  22698,  -608 },
	{ 0x0fc5d24000,  22394,  -637 },
	{ 0x1073876000,  22076,  -664 },
	{ 0x111eb36000,  21744,  -688 },
	{ 0x11c73b0000,  21400,  -715 },
	{ 0x126d054000,  21042,  -738 },
	{ 0x130ff7e000,  20672,  -763 },
	{ 0x13affa2000,  20290,  -790 },
	{ 0x144cf2f000,  19895,  -812 },
	{ 0x14e6ca9000,  19489,  -839 },
	{ 0x157d690000,  19070,  -859 },
	{ 0x1610b72000,  18640,  -881 },
	{ 0x16a09e5000,  18199,  -904 },
	{ 0x172d082000,  17747,  -926 },
	{ 0x17b5df2000,  17284,  -946 },
	{ 0x183b0df000,  16811,  -967 },
	{ 0x18bc804000,  16328,  -988 },
	{ 0x193a226000,  15834, -1004 },
	{ 0x19b3e02000,  15332, -1025 },
	{ 0x1a29a79000,  14820, -1043 },
	{ 0x1a9b660000,  14299, -1059 },
	{ 0x1b090a7000,  13769, -1074 },
	{ 0x1b72832000,  13232, -1093 },
	{ 0x1bd7c09000,  12686, -1107 },
	{ 0x1c38b2c000,  12133, -1123 },
	{ 0x1c954b0000,  11572, -1136 },
	{ 0x1ced7ae000,  11004, -1148 },
	{ 0x1d4134c000,  10430, -1162 },
	{ 0x1d906bd000,   9849, -1172 },
	{ 0x1ddb13a000,   9263, -1185 },
	{ 0x1e2120e000,   8671, -1196 },
	{ 0x1e6288f000,   8073, -1203 },
	{ 0x1e9f416000,   7471, -1213 },
	{ 0x1ed7411000,   6864, -1220 },
	{ 0x1f0a7ed000,   6254, -1230 },
	{ 0x1f38f3c000,   5639, -1236 },
	{ 0x1f6297e000,   5021, -1242 },
	{ 0x1f87650000,   4400, -1247 },
	{ 0x1fa7559000,   3776, -1250 },
	{ 0x1fc2647000,   3151, -1258 },
	{ 0x1fd88d9000,   2523, -1260 },
	{ 0x1fe9cdd000,   1893, -1260 },
	{ 0x1ff621e000,   1263, -1263 },
	{ 0x1ffd886000,    632, -1265 },
};

/* tanh |x| on [2^-8, 8): segments by binade (see below), units 2^-40 */
static const struct vgpu_mufu_seg vgpu_mufu_tanh_tab[51] = {
	{ 0x0100000000,  32768,     -4 },	/* 2^-8, 0 */
	{ 0x01fffe0000,  65532,    -24 },	/* 2^-7, 0 */
	{ 0x03ffec0000, 131048,   -208 },	/* 2^-6, 0 */
	{ 0x07ff560000, 130952,   -328 },	/* 2^-5, 0 */
	{ 0x0bfdc20000, 130788,   -440 },	/* 2^-5, 1 */
	{ 0x0ffaac0000, 261168,  -2544 },	/* 2^-4, 0 */
	{ 0x17ee0c0000, 259904,  -3552 },	/* 2^-4, 1 */
	{ 0x1fd59a0000, 258128,  -4472 },	/* 2^-3, 0 */
	{ 0x27ad760000, 255888,  -5408 },	/* 2^-3, 1 */
	{ 0x2f71fc0000, 253184,  -6320 },	/* 2^-3, 2 */
	{ 0x371fa00000, 250024,  -7128 },	/* 2^-3, 3 */
	{ 0x3eb2f00000, 493088, -33104 },	/* 2^-2, 0 */
	{ 0x4d7e4c0000, 476480, -38592 },	/* 2^-2, 1 */
	{ 0x5bbd400000, 457144, -42976 },	/* 2^-2, 2 */
	{ 0x695ca00000, 435608, -46304 },	/* 2^-2, 3 */
	{ 0x764d280000, 825136, -197184 },	/* 2^-1, 0 */
	{ 0x8dfa500000, 725984, -201216 },	/* 2^-1, 1 */
	{ 0xa299680000, 625008, -193216 },	/* 2^-1, 2 */
	{ 0xb433880000, 528176, -177376 },	/* 2^-1, 3 */
	{ 0xc2f8480000, 439376, -157168 },	/* 2^0, 0 */
	{ 0xcf2eb80000, 360816, -135648 },	/* 2^0, 1 */
	{ 0xd929880000, 293072, -114304 },	/* 2^0, 2 */
	{ 0xe13cb40000, 236008, -94768 },	/* 2^0, 3 */
	{ 0xe7b8200000, 188720, -77472 },	/* 2^0, 4 */
	{ 0xece3c40000, 150080, -62752 },	/* 2^0, 5 */
	{ 0xf0fe380000, 118800, -50304 },	/* 2^0, 6 */
	{ 0xf43c7c0000,  93728, -40144 },	/* 2^0, 7 */
	{ 0xf6caa00000,  73748, -31892 },	/* 2^1, 0 */
	{ 0xf8ccc10000,  57884, -25180 },	/* 2^1, 1 */
	{ 0xfa60050000,  45348, -19796 },	/* 2^1, 2 */
	{ 0xfb9bcd0000,  35492, -15568 },	/* 2^1, 3 */
	{ 0xfc92d10000,  27740, -12188 },	/* 2^1, 4 */
	{ 0xfd53d50000,  21670,  -9552 },	/* 2^1, 5 */
	{ 0xfdea8f0000,  16914,  -7468 },	/* 2^1, 6 */
	{ 0xfe602d0000,  13198,  -5840 },	/* 2^1, 7 */
	{ 0xfebbee0000,  10292,  -4556 },	/* 2^1, 8 */
	{ 0xff037a0000,   8024,  -3556 },	/* 2^1, 9 */
	{ 0xff3b400000,   6254,  -2772 },	/* 2^1, 10 */
	{ 0xff66b90000,   4874,  -2164 },	/* 2^1, 11 */
	{ 0xff88980000,   3798,  -1684 },	/* 2^1, 12 */
	{ 0xffa2fd0000,   2958,  -1308 },	/* 2^1, 13 */
	{ 0xffb78d0000,   2304,  -1016 },	/* 2^1, 14 */
	{ 0xffc7920000,   1794,   -788 },	/* 2^1, 15 */
	{ 0xffd4300000,   5272,  -7008 },	/* 2^2, 0 */
	{ 0xffefe00000,   1944,  -2592 },	/* 2^2, 1 */
	{ 0xfffa100000,    712,   -928 },	/* 2^2, 2 */
	{ 0xfffdd00000,    264,   -352 },	/* 2^2, 3 */
	{ 0xffff340000,     96,   -128 },	/* 2^2, 4 */
	{ 0xffffb40000,     40,    -64 },	/* 2^2, 5 */
	{ 0xffffe40000,     16,    -32 },	/* 2^2, 6 */
	{ 0xfffff40000,      8,    -16 },	/* 2^2, 7 */
};

/* t * t without the partial-product columns below @k, shifted down by @k. */
static u64 vgpu_mufu_sq(u32 t, unsigned int k)
{
	unsigned int i, lo;
	u64 s = 0;
	u32 bits;

	for (bits = t; bits; bits &= bits - 1) {
		i = __builtin_ctz(bits);
		if (2 * i >= k)
			s += 1ULL << (2 * i);
		/* bits j > i whose pair lands at column i + j + 1 >= k */
		lo = k - 1 - i > i + 1 ? k - 1 - i : i + 1;
		if (lo < 32)
			s += (u64)(t >> lo << lo) << (i + 1);
	}
	return s >> k;
}

static u64 vgpu_mufu_p(const struct vgpu_mufu_seg *c, u32 t, unsigned int k)
{
	return (u64)(c->c0 + (s64)c->c1 * t + (s64)c->c2 * (s64)vgpu_mufu_sq(t, k));
}

u32 vgpu_mufu_rcp(u32 x)
{
	u32 s = x & SIGN, e = (x >> 23) & 0xff, m = x & MANT, y;
	int re;

	if (e == 0xff)
		return m ? QNAN : s;
	if (!e)
		return s | INF;
	y = (u32)(vgpu_mufu_p(&vgpu_mufu_rcp_tab[m >> 16], m & 0xffff, 17) >> 15);
	re = 253 - (int)e;
	if (y >= 1U << 24) {	/* 1/2^k, the one result of 2^24 */
		y >>= 1;
		re++;
	}
	if (re <= 0)
		return s;
	return s | (u32)re << 23 | (y & MANT);
}

/* x = 2^(2k) * [1, 4): the segment of rsq's and sqrt's tables, and k. */
static unsigned int vgpu_mufu_quarter(u32 e, u32 m, int *k)
{
	int ex = (int)e - 127;
	u32 odd = ex & 1;

	*k = (ex - (int)odd) / 2;
	return odd << 6 | m >> 17;
}

u32 vgpu_mufu_rsq(u32 x)
{
	u32 s = x & SIGN, e = (x >> 23) & 0xff, m = x & MANT, y;
	unsigned int seg;
	int k, re;

	if (e == 0xff)
		return m || s ? QNAN : 0;
	if (!e)
		return s | INF;
	if (s)
		return QNAN;
	seg = vgpu_mufu_quarter(e, m, &k);
	if (!seg && !m)		/* 4^k: exact, one ulp above the interpolator */
		return (u32)(127 - k) << 23;
	y = (u32)(vgpu_mufu_p(&vgpu_mufu_rsq_tab[seg], m & 0x1ffff, 19) >> 16);
	re = 126 - k;
	if (y >= 1U << 24) {
		y >>= 1;
		re++;
	}
	return (u32)re << 23 | (y & MANT);
}

u32 vgpu_mufu_sqrt(u32 x)
{
	u32 s = x & SIGN, e = (x >> 23) & 0xff, m = x & MANT, y;
	unsigned int seg;
	int k, re;

	if (e == 0xff)
		return m || s ? QNAN : INF;
	if (!e)
		return s;
	if (s)
		return QNAN;
	seg = vgpu_mufu_quarter(e, m, &k);
	y = (u32)(vgpu_mufu_p(&vgpu_mufu_sqrt_tab[seg], m & 0x1ffff, 19) >> 17);
	re = 127 + k;
	if (y >= 1U << 24) {
		y >>= 1;
		re++;
	}
	return (u32)re << 23 | (y & MANT);
}

/*
 * 2^x: |x| in fixed point of 7 integer and 23 fraction bits (truncated);
 * a negative x with a fraction takes the one's complement of it, so its
 * fraction is 1 - f less one unit, and its integer part one more.
 */
u32 vgpu_mufu_ex2(u32 x)
{
	u32 e = (x >> 23) & 0xff, m = x & MANT, a, f, y;
	bool neg = x & SIGN;
	int n, be;

	if (e == 0xff)
		return m ? QNAN : neg ? 0 : INF;
	if (!e)
		return 0x3f800000U;
	if (e >= 127 + 7)
		return neg ? 0 : INF;
	m |= 1U << 23;
	a = e >= 127 ? m << (e - 127) : 127 - e < 32 ? m >> (127 - e) : 0;
	if (!neg) {
		n = (int)(a >> 23);
		f = a & MANT;
	} else if (!(a & MANT)) {
		n = -(int)(a >> 23);
		f = 0;
	} else {
		n = -(int)(a >> 23) - 1;
		f = ~a & MANT;
	}
	y = (u32)(vgpu_mufu_p(&vgpu_mufu_ex2_tab[f >> 17], f & 0x1ffff, 19) >> 15);
	be = n + 127;
	if (be <= 0)
		return 0;
	if (be >= 255)
		return INF;
	return (u32)be << 23 | (y & MANT);
}

/*
 * log2 x: the exponent plus log2 of the mantissa in fixed point of 36
 * fraction bits; a negative sum becomes a magnitude by one's complement
 * (lg2 0.5 is 0xbf7ffffe), normalized and truncated.
 */
u32 vgpu_mufu_lg2(u32 x)
{
	u32 e = (x >> 23) & 0xff, m = x & MANT, rs = 0;
	s64 v;
	u64 mag;
	int nb;

	if (e == 0xff && m)
		return QNAN;
	if (!e)
		return 0xff800000U;
	if (x & SIGN)
		return QNAN;
	if (e == 0xff)
		return INF;
	if (e == 127 && !m)
		return 0;
	v = ((s64)e - 127) * (1LL << 36) +
	    (s64)(vgpu_mufu_p(&vgpu_mufu_lg2_tab[m >> 17], m & 0x1ffff, 19) >> 2);
	if (v < 0) {
		rs = SIGN;
		mag = (u64)(-v - 1);
	} else {
		mag = (u64)v;
	}
	if (!mag)
		return rs;
	nb = 63 - __builtin_clzll(mag);
	mag = nb >= 23 ? mag >> (nb - 23) : mag << (23 - nb);
	return rs | (u32)(nb - 36 + 127) << 23 | ((u32)mag & MANT);
}

/* A positive fixed-point value of @fb fraction bits to f32, truncated. */
static u32 vgpu_mufu_float(u64 p, int fb)
{
	int n;

	if (!p)
		return 0;
	n = 63 - __builtin_clzll(p);
	p = n >= 23 ? p >> (n - 23) : p << (23 - n);
	return (u32)(n - fb + 127) << 23 | ((u32)p & MANT);
}

/*
 * sin and cos of t turns: the fraction of |t| in fixed point of 25 bits
 * (truncated), its top two bits the quadrant, the other 23 the angle in
 * it; an odd quadrant takes their one's complement. From 2^23 turns on
 * no fraction is left: sin gives a zero of t's sign and cos 1, as for
 * zeros and subnormals.
 */
static u32 vgpu_mufu_sincos(u32 t, unsigned int quadrant)
{
	u32 a = t & ~SIGN, e = a >> 23, u, q, v;
	bool neg = t & SIGN;
	int sh = (int)e - 125;
	u64 m;

	if (a >= INF)
		return QNAN;
	if (!e || a >= 0x4b000000U)
		return quadrant ? 0x3f800000U : t & SIGN;
	m = (a & MANT) | 1U << 23;
	m = sh >= 0 ? m << sh : sh > -32 ? m >> -sh : 0;
	q = ((u32)(m >> 23) + quadrant) & 3;
	u = (u32)m & MANT;
	v = q & 1 ? MANT - u : u;
	if (quadrant)		/* cos: the sign of the quadrant alone */
		neg = false;
	return vgpu_mufu_float(vgpu_mufu_p(&vgpu_mufu_sin_tab[v >> 17],
					   v & 0x1ffff, 19), 37) |
	       ((neg ^ (q >> 1)) ? SIGN : 0);
}

u32 vgpu_mufu_sin(u32 t)
{
	return vgpu_mufu_sincos(t, 0);
}

u32 vgpu_mufu_cos(u32 t)
{
	return vgpu_mufu_sincos(t, 1);
}

/*
 * tanh |x| on [2^-8, 8): per binade from 2^-8 up, the first segment of
 * vgpu_mufu_tanh_tab and how many top mantissa bits pick one of its
 * segments; the next 17 bits interpolate.
 */
static const u8 vgpu_mufu_tanh_first[11] = {
	0, 1, 2, 3, 5, 7, 11, 15, 19, 27, 43,
};

static const u8 vgpu_mufu_tanh_bits[11] = { 0, 0, 0, 1, 1, 2, 2, 2, 3, 4, 3 };

/* Odd; x itself below 2^-8 (subnormals too), 1 from 8 on. */
u32 vgpu_mufu_tanh(u32 x)
{
	u32 a = x & ~SIGN, s = x & SIGN, m = x & MANT;
	int e = (int)(a >> 23) - 127;
	unsigned int k, seg;
	u64 p;

	if (a > INF)
		return QNAN;
	if (e < -8)
		return x;
	if (e >= 3)
		return s | 0x3f800000U;
	k = vgpu_mufu_tanh_bits[e + 8];
	seg = vgpu_mufu_tanh_first[e + 8] + (m >> (23 - k));
	p = vgpu_mufu_p(&vgpu_mufu_tanh_tab[seg], (m >> (6 - k)) & 0x1ffff, 19);
	if (p >= 1ULL << 40)
		return s | 0x3f800000U;
	return s | vgpu_mufu_float(p, 40);
}
