/* help.h - the one layout of every --help: synopses, wrapped paragraphs, definition lists, samples and option rows. */
#ifndef ASTRAY_HELP_H
#define ASTRAY_HELP_H

#include <stdio.h>

#define HELP_WIDTH 79  /* the last column a --help line reaches: fits an 80-column terminal */

/*
 * Writes a help text, every line indented by `indent`.  The text is a
 * list of blocks, one per line of it; a '\n' ends a block and never
 * breaks a line inside one (the wrapper does that):
 *   - an empty line is a blank line;
 *   - a line starting with a space is a sample (a command to type, a
 *     line of output), written as it is;
 *   - "TERM\tTEXT" is a row of a definition list: TERM two columns in,
 *     TEXT wrapped in one column after the list's longest TERM (the
 *     rows of a list are consecutive lines);
 *   - any other line is a paragraph, wrapped to HELP_WIDTH.
 * A wrapped line never breaks inside parentheses, brackets or a `code
 * span` that fit on one line, and the last line of a paragraph does not hold a single
 * word when the line before can give it one.
 */
void help_text(FILE *out, int indent, const char *text);

/* help_text of a printf-style format (a number or a path in the text). */
void help_textf(FILE *out, int indent, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * One row of a table of options or commands: `left` from column 0,
 * then text's blocks as help_text writes them at indent `col`, the
 * first one from column col (or two spaces after a longer left).
 */
void help_row(FILE *out, const char *left, int col, const char *text);

/*
 * The synopsis: "usage: astray CMD FORM" for the first of the
 * NULL-terminated forms, "       astray CMD FORM" for the others, each
 * wrapped under its first argument.
 */
void help_usage(FILE *out, const char *cmd, const char *const *forms);

#endif
