// SPDX-License-Identifier: MIT
#pragma once
// The kernel source editor: QScintilla with the C++ lexer, a monospace font and line numbers; shows
// diagnostics as margin markers, squiggles and inline annotations, and shades locked regions, which
// the engineer cannot edit.

#include <Qsci/qsciscintilla.h>

#include <vector>

#include "core/model/Diagnostic.h"

namespace kwb::ui {

class KernelEditor : public QsciScintilla {
  Q_OBJECT
 public:
  explicit KernelEditor(QWidget* parent = nullptr);
  void setSource(const QString& text);

  // Diagnostics whose file matches `fileName` (or have no file) are shown; others are ignored.
  void setDiagnostics(const std::vector<Diagnostic>& diagnostics, const QString& fileName);
  int shownDiagnosticCount() const { return shownDiagnostics_; }

  // 1-based inclusive line ranges that may not be edited.
  void setLockedRanges(const std::vector<std::pair<int, int>>& ranges);
  bool isLineLocked(int line1) const;

  void jumpToLine(int line1, int column1 = 1);
  // While the agent streams into the editor it is read-only, and streamed text is not an edit of the
  // engineer: isModified() stays false.
  void setStreaming(bool streaming);
  bool streaming() const { return streaming_; }
  void appendStreamed(const QString& delta);

 private:
  void keyPressEvent(QKeyEvent* e) override;
  bool selectionTouchesLock() const;

  int errorIndicator_ = 8;
  int warningIndicator_ = 9;
  int shownDiagnostics_ = 0;
  bool streaming_ = false;
  std::vector<std::pair<int, int>> locked_;
};

}  // namespace kwb::ui
