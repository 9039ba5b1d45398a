// The system Hunspell, for the C target CTextRotorSpell only: this module exists so that SwiftPM
// takes Hunspell's include and link flags from pkg-config (hunspell). No Swift code imports it;
// Swift calls Hunspell through CTextRotorSpell, whose public header names no Hunspell type.
#ifndef TEXTROTOR_CHUNSPELL_H
#define TEXTROTOR_CHUNSPELL_H

#include <hunspell.h>

#endif
