/*
 * ascii.h - plain ASCII forms of the symbols the wizard draws, for a
 * terminal whose locale is not UTF-8. No curses here (the unit tests use it).
 */
#ifndef PDWIZ_TUI_ASCII_H
#define PDWIZ_TUI_ASCII_H

/*
 * UTF-8 text as ASCII (malloc'd): each known symbol by its ASCII form
 * (arrows, marks, box drawing, dots, dashes, quotes, comparisons), any
 * other character outside ASCII, or a broken sequence, by '?'.
 */
char	*tui_ascii(const char *utf8);

#endif
