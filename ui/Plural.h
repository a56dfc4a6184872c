// SPDX-License-Identifier: MIT
#pragma once
// "1 error", "2 errors": the workbench ships no translations, so Qt's %n plural forms would print
// "error(s)"; counts in the UI go through this instead.

#include <QCoreApplication>
#include <QString>

namespace kwb::ui {

// `one` and `many` are the noun's singular and plural ("error", "errors").
inline QString countOf(qint64 n, const QString& one, const QString& many) {
  return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

}  // namespace kwb::ui
