// SPDX-License-Identifier: MIT
#include "ui/CodeTheme.h"

#include <Qsci/qscilexercpp.h>
#include <Qsci/qsciscintilla.h>

namespace kwb::ui {

bool isDarkPalette(const QPalette& palette) {
  return palette.color(QPalette::Base).lightness() < 128;
}

void applyCodeTheme(QsciScintilla* editor, QsciLexerCPP* lexer, const QPalette& pal) {
  const bool dark = isDarkPalette(pal);
  const QColor paper = pal.color(QPalette::Base);
  const QColor text = pal.color(QPalette::Text);
  lexer->setDefaultPaper(paper);
  lexer->setPaper(paper);  // every style
  lexer->setDefaultColor(text);
  if (dark) {
    // QScintilla's built-in C++ colours are meant for white paper; these read on dark paper.
    lexer->setColor(text, QsciLexerCPP::Default);
    lexer->setColor(text, QsciLexerCPP::Identifier);
    lexer->setColor(text, QsciLexerCPP::Operator);
    lexer->setColor(QColor(86, 156, 214), QsciLexerCPP::Keyword);
    lexer->setColor(QColor(78, 201, 176), QsciLexerCPP::KeywordSet2);
    for (int s : {int(QsciLexerCPP::Comment), int(QsciLexerCPP::CommentLine), int(QsciLexerCPP::CommentDoc),
                  int(QsciLexerCPP::CommentLineDoc)})
      lexer->setColor(QColor(106, 153, 85), s);
    lexer->setColor(QColor(181, 206, 168), QsciLexerCPP::Number);
    for (int s : {int(QsciLexerCPP::DoubleQuotedString), int(QsciLexerCPP::SingleQuotedString),
                  int(QsciLexerCPP::RawString)})
      lexer->setColor(QColor(206, 145, 120), s);
    lexer->setColor(QColor(197, 134, 192), QsciLexerCPP::PreProcessor);
  }
  editor->setMarginsBackgroundColor(pal.color(QPalette::Window));
  editor->setMarginsForegroundColor(pal.color(QPalette::PlaceholderText));
  editor->setFoldMarginColors(pal.color(QPalette::Window), pal.color(QPalette::Window));
  editor->setCaretForegroundColor(text);
  editor->setCaretLineBackgroundColor(pal.color(QPalette::AlternateBase));
  editor->setSelectionBackgroundColor(pal.color(QPalette::Highlight));
  editor->setSelectionForegroundColor(pal.color(QPalette::HighlightedText));
  editor->setPaper(paper);
  editor->setColor(text);
}

DiffColours diffColours(const QPalette& palette) {
  if (isDarkPalette(palette))
    return {QColor(96, 38, 38), QColor(34, 84, 44), QColor(92, 74, 28),
            palette.color(QPalette::AlternateBase)};
  return {QColor(255, 215, 215), QColor(210, 245, 210), QColor(255, 240, 200), QColor(235, 235, 235)};
}

AnnotationColours annotationColours(const QPalette& palette) {
  if (isDarkPalette(palette))
    return {QColor(80, 30, 30), QColor(255, 170, 170), QColor(78, 62, 20), QColor(255, 215, 140)};
  return {QColor(253, 230, 230), QColor(150, 20, 20), QColor(253, 244, 220), QColor(120, 80, 0)};
}

}  // namespace kwb::ui
