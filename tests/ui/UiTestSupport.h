// SPDX-License-Identifier: MIT
#pragma once
// Shared by the GUI tests: waiting on the event loop for a condition, and QSettings kept in a test
// folder so a test never reads or writes the user's real settings.

#include <QElapsedTimer>
#include <QSettings>
#include <QString>
#include <QtTest>
#include <functional>
#include <memory>
#include <optional>

namespace kwb::uitest {

// Spins the event loop until `pred` holds or `ms` pass; true when it held.
inline bool waitFor(const std::function<bool()>& pred, int ms) {
  QElapsedTimer t;
  t.start();
  while (!pred()) {
    if (t.elapsed() > ms) return false;
    QTest::qWait(50);
  }
  return true;
}

// Opens a session folder through `app.openSession` (read off the GUI thread) and waits for the outcome;
// false when it did not open or did not finish within `ms`.
template <typename App>
bool openSessionAndWait(App& app, const QString& dir, int ms = 120000) {
  auto result = std::make_shared<std::optional<bool>>();
  app.openSession(dir, [result](bool ok) { *result = ok; });
  waitFor([&] { return result->has_value(); }, ms);
  return result->value_or(false);
}

// Every QSettings of this process (default-constructed) reads and writes an INI file under `dir`.
inline void isolateSettings(const QString& dir) {
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir);
}

}  // namespace kwb::uitest
