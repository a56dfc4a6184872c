// SPDX-License-Identifier: MIT
#include "ui/KernelEditor.h"

#include "ui/CodeTheme.h"

#include <Qsci/qscilexercpp.h>

#include <QFontDatabase>
#include <QKeyEvent>
#include <QPalette>
#include <map>

namespace kwb::ui {
namespace {
enum Marker { ErrorMarker = 0, WarningMarker = 1, NoteMarker = 2, LockedMarker = 3 };
constexpr int kAnnotationErrorStyle = 200;
constexpr int kAnnotationWarningStyle = 201;
}  // namespace

KernelEditor::KernelEditor(QWidget* parent) : QsciScintilla(parent) {
  const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  auto* lexer = new QsciLexerCPP(this);
  lexer->setDefaultFont(mono);
  lexer->setFont(mono);
  setLexer(lexer);
  // Candidates guard kernel code with #if KWB_COMPILE_KERNEL: do not grey it out as inactive.
  SendScintilla(QsciScintillaBase::SCI_SETPROPERTY, "lexer.cpp.track.preprocessor", "0");
  setUtf8(true);
  setMarginType(0, QsciScintilla::NumberMargin);
  setMarginWidth(0, QStringLiteral("00000"));
  setMarginsFont(mono);
  // Margin 1 holds severity symbols.
  setMarginType(1, QsciScintilla::SymbolMargin);
  setMarginWidth(1, 16);
  setMarginMarkerMask(1, (1 << ErrorMarker) | (1 << WarningMarker) | (1 << NoteMarker));
  markerDefine(QsciScintilla::Circle, ErrorMarker);
  setMarkerBackgroundColor(QColor(220, 50, 47), ErrorMarker);
  setMarkerForegroundColor(QColor(220, 50, 47), ErrorMarker);
  markerDefine(QsciScintilla::Circle, WarningMarker);
  setMarkerBackgroundColor(QColor(230, 160, 0), WarningMarker);
  markerDefine(QsciScintilla::Circle, NoteMarker);
  setMarkerBackgroundColor(QColor(38, 139, 210), NoteMarker);
  markerDefine(QsciScintilla::Background, LockedMarker);
  setMarkerBackgroundColor(palette().color(QPalette::AlternateBase).darker(108), LockedMarker);
  indicatorDefine(QsciScintilla::SquiggleIndicator, errorIndicator_);
  setIndicatorForegroundColor(QColor(220, 50, 47), errorIndicator_);
  indicatorDefine(QsciScintilla::SquiggleIndicator, warningIndicator_);
  setIndicatorForegroundColor(QColor(230, 160, 0), warningIndicator_);
  const AnnotationColours ac = annotationColours(palette());
  SendScintilla(SCI_STYLESETBACK, kAnnotationErrorStyle, ac.errorBack);
  SendScintilla(SCI_STYLESETFORE, kAnnotationErrorStyle, ac.errorFore);
  SendScintilla(SCI_STYLESETBACK, kAnnotationWarningStyle, ac.warningBack);
  SendScintilla(SCI_STYLESETFORE, kAnnotationWarningStyle, ac.warningFore);
  setAnnotationDisplay(QsciScintilla::AnnotationBoxed);
  setTabWidth(4);
  setIndentationsUseTabs(false);
  setAutoIndent(true);
  setBraceMatching(QsciScintilla::SloppyBraceMatch);
  setCaretLineVisible(true);
  setFolding(QsciScintilla::BoxedTreeFoldStyle, 2);
  applyCodeTheme(this, lexer, palette());
}

void KernelEditor::setSource(const QString& text) {
  const bool ro = isReadOnly();
  setReadOnly(false);
  setText(text);
  setReadOnly(ro);
  setModified(false);
  markerDeleteAll(ErrorMarker);
  markerDeleteAll(WarningMarker);
  markerDeleteAll(NoteMarker);
  clearAnnotations();
  shownDiagnostics_ = 0;
  setLockedRanges(locked_);
}

void KernelEditor::setDiagnostics(const std::vector<Diagnostic>& diagnostics, const QString& fileName) {
  markerDeleteAll(ErrorMarker);
  markerDeleteAll(WarningMarker);
  markerDeleteAll(NoteMarker);
  clearAnnotations();
  const int endLine = lines() - 1;
  clearIndicatorRange(0, 0, endLine, lineLength(endLine), errorIndicator_);
  clearIndicatorRange(0, 0, endLine, lineLength(endLine), warningIndicator_);
  shownDiagnostics_ = 0;
  std::map<int, QStringList> notesByLine;
  std::map<int, bool> errorLine;
  for (const auto& d : diagnostics) {
    if (d.line <= 0 || d.line > lines()) continue;
    const QString file = QString::fromStdString(d.file);
    if (!file.isEmpty() && !fileName.isEmpty() && !file.endsWith(fileName) && !fileName.endsWith(file))
      continue;
    const int line0 = d.line - 1;
    const int marker = d.isError()                       ? ErrorMarker
                       : d.severity == Severity::Warning ? WarningMarker
                                                         : NoteMarker;
    markerAdd(line0, marker);
    const int ind = d.isError() ? errorIndicator_ : warningIndicator_;
    const int len = lineLength(line0);
    const int from = d.column > 0 ? std::min(d.column - 1, std::max(0, len - 1)) : 0;
    fillIndicatorRange(line0, from, line0, std::max(from + 1, len - 1), ind);
    QString text = QStringLiteral("%1 [%2] %3")
                       .arg(QString::fromUtf8(toString(d.severity).data()),
                            QString::fromStdString(d.category), QString::fromStdString(d.message));
    if (d.block) text += QStringLiteral(" (block %1)").arg(*d.block);
    notesByLine[line0] << text;
    errorLine[line0] = errorLine[line0] || d.isError();
    ++shownDiagnostics_;
  }
  for (const auto& [line0, texts] : notesByLine)
    annotate(line0, texts.join(QLatin1Char('\n')),
             errorLine[line0] ? kAnnotationErrorStyle : kAnnotationWarningStyle);
}

void KernelEditor::setLockedRanges(const std::vector<std::pair<int, int>>& ranges) {
  locked_ = ranges;
  markerDeleteAll(LockedMarker);
  for (auto [a, b] : ranges)
    for (int l = a; l <= b && l <= lines(); ++l) markerAdd(l - 1, LockedMarker);
}

bool KernelEditor::isLineLocked(int line1) const {
  for (auto [a, b] : locked_)
    if (line1 >= a && line1 <= b) return true;
  return false;
}

bool KernelEditor::selectionTouchesLock() const {
  int l1, c1, l2, c2;
  getSelection(&l1, &c1, &l2, &c2);
  if (l1 < 0) {
    int line, col;
    getCursorPosition(&line, &col);
    l1 = l2 = line;
  }
  for (int l = l1; l <= l2; ++l)
    if (isLineLocked(l + 1)) return true;
  return false;
}

void KernelEditor::keyPressEvent(QKeyEvent* e) {
  // Navigation and copying stay possible inside a locked region; anything that edits does not.
  const bool navigation = e->matches(QKeySequence::Copy) || e->matches(QKeySequence::SelectAll) ||
                          e->key() == Qt::Key_Left || e->key() == Qt::Key_Right || e->key() == Qt::Key_Up ||
                          e->key() == Qt::Key_Down || e->key() == Qt::Key_PageUp ||
                          e->key() == Qt::Key_PageDown || e->key() == Qt::Key_Home ||
                          e->key() == Qt::Key_End || e->key() == Qt::Key_Shift || e->key() == Qt::Key_Control;
  if (!navigation && !locked_.empty() && selectionTouchesLock()) {
    e->accept();
    emit SCN_MODIFYATTEMPTRO();
    return;
  }
  QsciScintilla::keyPressEvent(e);
}

void KernelEditor::jumpToLine(int line1, int column1) {
  if (line1 <= 0) return;
  setCursorPosition(line1 - 1, std::max(0, column1 - 1));
  ensureLineVisible(line1 - 1);
  setFocus();
}

void KernelEditor::setStreaming(bool streaming) {
  streaming_ = streaming;
  setReadOnly(streaming);
}

void KernelEditor::appendStreamed(const QString& delta) {
  const bool ro = isReadOnly();
  const bool wasModified = isModified();
  setReadOnly(false);
  append(delta);
  setReadOnly(ro);
  setModified(wasModified);
  const int last = lines() - 1;
  ensureLineVisible(last);
}

}  // namespace kwb::ui
