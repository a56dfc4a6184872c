// SPDX-License-Identifier: MIT
#pragma once
// Colours of the code views (editor, diff) that follow the system palette, light or dark: paper and
// text from the palette, a syntax scheme readable on either, and marker/annotation tints that keep
// their meaning (red = error or removed, green = added, amber = warning or changed) on both.

#include <QColor>
#include <QPalette>

class QsciScintilla;
class QsciLexerCPP;

namespace kwb::ui {

bool isDarkPalette(const QPalette& palette);

// Applies paper, text, margin, caret, selection and syntax colours to an editor and its C++ lexer.
void applyCodeTheme(QsciScintilla* editor, QsciLexerCPP* lexer, const QPalette& palette);

struct DiffColours {
  QColor removed, added, changed, pad;
};
DiffColours diffColours(const QPalette& palette);

struct AnnotationColours {
  QColor errorBack, errorFore, warningBack, warningFore;
};
AnnotationColours annotationColours(const QPalette& palette);

}  // namespace kwb::ui
