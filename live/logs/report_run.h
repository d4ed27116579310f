/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `kstack report DIR` and `kstack --report DIR`: what a background run's
 * logs say, read back in one streaming pass (report_files.c, report_lines.c,
 * report_parse.c), analysed (report_stacks.c, report_stuck.c, and here the
 * timeline and one PID's history) and written (report_write.c).
 */
#ifndef KS_REPORT_RUN_H
#define KS_REPORT_RUN_H

#include <stdbool.h>

/* argv asks for a report: argv[1] is "report", or --report is given */
bool ks_report_wanted(int argc, char **argv);
/* The report; the process exit status. */
int ks_report_main(int argc, char **argv);

#endif /* KS_REPORT_RUN_H */
