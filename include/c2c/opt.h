/* Command-line options as every c2c-lite command reads them: getopt_long(3) whose own messages
 * (two lines, prefixed with the command's name) are replaced by one usage error line through
 * c2c_usage() (include/c2c/log.h): "c2c-lite: error: unknown option '--bogus' (see 'c2c-lite
 * report --help')". */
#ifndef C2C_OPT_H
#define C2C_OPT_H

#include <getopt.h>

/* As getopt_long() (@shortopts may start with '+'), but an unknown, ambiguous or misused
 * option and a missing argument are said in one line and returned as '?'. */
int c2c_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts);

#endif
