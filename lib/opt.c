/* getopt_long with one-line usage errors (see include/c2c/opt.h). */
#include <stdio.h>
#include <string.h>

#include "c2c/log.h"
#include "c2c/opt.h"

/* The long options that start with @name (its first @n bytes), for an ambiguous abbreviation:
 * "--no-source, --no-map", or "" when at most one does. */
static void candidates(const struct option *lo, const char *name, size_t n, char *buf, size_t size)
{
	size_t used = 0;
	int found = 0;

	buf[0] = '\0';
	for (; lo && lo->name; lo++) {
		if (strncmp(lo->name, name, n))
			continue;
		if (strlen(lo->name) == n)           /* an exact name is never ambiguous */
			return;
		if (used < size)
			used += (size_t)snprintf(buf + used, size - used, "%s--%s", found ? ", " : "",
						 lo->name);
		found++;
	}
	if (found < 2)
		buf[0] = '\0';
}

/* The word getopt stopped at, @word, was a long option: say what was wrong with it. */
static void long_error(const char *word, int missing, const struct option *lo)
{
	size_t n = strcspn(word + 2, "=");
	char names[512];

	if (missing) {
		c2c_usage("option '%.*s' needs an argument", (int)n + 2, word);
		return;
	}
	candidates(lo, word + 2, n, names, sizeof(names));
	if (*names)
		c2c_usage("option '%.*s' is ambiguous: %s", (int)n + 2, word, names);
	else if (word[2 + n] == '=')
		c2c_usage("option '%.*s' takes no argument", (int)n + 2, word);
	else
		c2c_usage("unknown option '%.*s'", (int)n + 2, word);
}

int c2c_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
	char opts[128];
	const char *word;
	int c, plus = shortopts[0] == '+';

	/* a leading ':' (after '+') makes a missing argument ':' instead of '?' */
	snprintf(opts, sizeof(opts), "%s:%s", plus ? "+" : "", shortopts + plus);
	opterr = 0;
	c = getopt_long(argc, argv, opts, longopts, NULL);
	if (c != '?' && c != ':')
		return c;
	word = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	/* a short option's error is in optopt: an unknown character, or one whose argument is
	 * missing at the end of the words; a long option's (optopt 0 when unknown, else its value)
	 * is the word it was in */
	if (!strncmp(word, "--", 2) && (c == ':' || !optopt || optopt > 255 ||
					strchr(shortopts, optopt)))
		long_error(word, c == ':', longopts);
	else if (c == ':')
		c2c_usage("option '-%c' needs an argument", optopt);
	else
		c2c_usage("unknown option '-%c'", optopt);
	return '?';
}
