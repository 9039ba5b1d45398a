// The system ICU, for the C target CTextRotorShim only: this module exists so that SwiftPM takes ICU's
// include and link flags from pkg-config (icu-i18n). No Swift code imports it; Swift calls ICU
// through CTextRotorShim, whose public header names no ICU type.
#ifndef TEXTROTOR_CICU_ICU_H
#define TEXTROTOR_CICU_ICU_H

#include <unicode/utypes.h>

#endif
