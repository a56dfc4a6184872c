#pragma once
// The kernel source editor: QScintilla with the C++ lexer, a monospace font and line numbers.

#include <Qsci/qsciscintilla.h>

namespace kwb::ui {

class KernelEditor : public QsciScintilla {
  Q_OBJECT
 public:
  explicit KernelEditor(QWidget* parent = nullptr);
  void setSource(const QString& text);
};

}  // namespace kwb::ui
