/* ask.h - a yes/no question before (or after) a screen: one key in a terminal, a line elsewhere. */
#ifndef ASTRAY_ASK_H
#define ASTRAY_ASK_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Asks question on out ("QUESTION [Y/n] ") and reads the answer from in.
 * When in is a terminal the answer is one key, not echoed as typed: y or
 * n, Enter for the default; Esc, Ctrl-C or Ctrl-D answer nothing (-1);
 * any other key (an arrow among them) asks again.  The word
 * answered is printed after the question, and whatever else was typed
 * ahead is dropped, so a "y" and Enter typed from habit do not reach the
 * game as keys.  Elsewhere (a pipe, a file) a line is read: y or n, an
 * empty line for the default.  Returns 1 yes, 0 no, -1 no answer.
 */
int ask_yes_no(FILE *in, FILE *out, const char *question, bool default_yes);

#endif
