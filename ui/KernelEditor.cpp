#include "ui/KernelEditor.h"

#include <Qsci/qscilexercpp.h>

#include <QFontDatabase>
#include <QPalette>

namespace kwb::ui {

KernelEditor::KernelEditor(QWidget* parent) : QsciScintilla(parent) {
  const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  auto* lexer = new QsciLexerCPP(this);
  lexer->setDefaultFont(mono);
  lexer->setFont(mono);
  setLexer(lexer);
  setUtf8(true);
  setMarginType(0, QsciScintilla::NumberMargin);
  setMarginWidth(0, QStringLiteral("00000"));
  setMarginsFont(mono);
  setTabWidth(4);
  setIndentationsUseTabs(false);
  setAutoIndent(true);
  setBraceMatching(QsciScintilla::SloppyBraceMatch);
  setCaretLineVisible(true);
  setCaretLineBackgroundColor(palette().color(QPalette::AlternateBase));
  setFolding(QsciScintilla::BoxedTreeFoldStyle, 2);
}

void KernelEditor::setSource(const QString& text) {
  setText(text);
  setModified(false);
}

}  // namespace kwb::ui
