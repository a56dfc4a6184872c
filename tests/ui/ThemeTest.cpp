// SPDX-License-Identifier: MIT
// The code views follow the system palette: on a dark palette the editor and the diff get dark paper,
// light text and dark-friendly marker tints; on the default light palette they stay light.
#include <QApplication>
#include <QTemporaryDir>
#include <QtTest>

#include "tests/ui/UiTestSupport.h"

#include "ui/CodeTheme.h"
#include "ui/KernelEditor.h"
#include "ui/MainWindow.h"

using namespace kwb::ui;

namespace {
QPalette darkPalette() {
  QPalette p;
  p.setColor(QPalette::Window, QColor(45, 45, 48));
  p.setColor(QPalette::WindowText, QColor(220, 220, 220));
  p.setColor(QPalette::Base, QColor(30, 30, 30));
  p.setColor(QPalette::AlternateBase, QColor(40, 40, 44));
  p.setColor(QPalette::Text, QColor(220, 220, 220));
  p.setColor(QPalette::Button, QColor(50, 50, 54));
  p.setColor(QPalette::ButtonText, QColor(220, 220, 220));
  p.setColor(QPalette::Highlight, QColor(38, 79, 120));
  p.setColor(QPalette::HighlightedText, QColor(255, 255, 255));
  return p;
}
}  // namespace

class ThemeTest : public QObject {
  Q_OBJECT
  QTemporaryDir settingsDir_;  // the window keeps its layout in QSettings: never the user's

 private slots:
  void initTestCase() { kwb::uitest::isolateSettings(settingsDir_.path()); }

  void lightPaletteKeepsLightCode() {
    KernelEditor e;
    QVERIFY(!isDarkPalette(e.palette()));
    QVERIFY(e.paper().lightness() > 200);
    QVERIFY(diffColours(e.palette()).added.lightness() > 150);
  }

  void darkPaletteGivesDarkCode() {
    const QPalette old = QApplication::palette();
    QApplication::setPalette(darkPalette());
    {
      MainWindow w;
      QVERIFY(w.openTask(QStringLiteral(KWB_SOURCE_DIR "/resources/tasks/add_custom")));
      QVERIFY(isDarkPalette(w.editor()->palette()));
      QVERIFY(w.editor()->paper().lightness() < 80);
      QVERIFY(w.editor()->color().lightness() > 150);
      QVERIFY(diffColours(w.editor()->palette()).added.lightness() < 100);
      QVERIFY(annotationColours(w.editor()->palette()).errorBack.lightness() < 100);
      w.show();
      QVERIFY(QTest::qWaitForWindowExposed(&w));
      QVERIFY(w.grab().save(QStringLiteral(KWB_TEST_OUT_DIR "/dark_theme.png")));
    }
    QApplication::setPalette(old);
  }
};

QTEST_MAIN(ThemeTest)
#include "ThemeTest.moc"
