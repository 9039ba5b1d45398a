// The system cmark-gfm (GitHub's CommonMark parser), for the C target CTextRotorMarkdown only: this
// module exists so that SwiftPM takes cmark-gfm's include and link flags from pkg-config
// (libcmark-gfm). No Swift code imports it; Swift calls the parser through CTextRotorMarkdown,
// whose public header names no cmark type.
#ifndef TEXTROTOR_CCMARKGFM_H
#define TEXTROTOR_CCMARKGFM_H

#include <cmark-gfm.h>

#endif
