// SPDX-License-Identifier: MIT
// The new-session dialog (task, backend, SoC, provider, limits), the settings dialog (provider, limits,
// sandbox) and the session defaults they share.
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "tests/ui/UiTestSupport.h"
#include "ui/LimitsEditor.h"
#include "ui/NewSessionDialog.h"
#include "ui/SessionDefaults.h"
#include "ui/SettingsDialog.h"
#include "ui/WorkbenchApp.h"

using namespace kwb;
using namespace kwb::ui;

class SessionDialogsTest : public QObject {
  Q_OBJECT
  QTemporaryDir settingsDir_;

 private slots:
  void initTestCase() { uitest::isolateSettings(settingsDir_.path()); }

  void newSessionOffersTheBuiltInTasksAndValidatesFolders() {
    SessionDefaults d = builtinSessionDefaults();
    d.limits.maxIterations = 7;
    NewSessionDialog dialog(QStringLiteral(KWB_SOURCE_DIR "/resources/tasks"), d, QStringLiteral("replay"));
    QVERIFY(dialog.taskCount() >= 20);
    NewSessionChoice c = dialog.choice();
    QVERIFY(c.taskDir.endsWith(QStringLiteral("/add_custom")));
    QCOMPARE(c.backend, QStringLiteral("ascend-sim"));
    QCOMPARE(c.soc, QStringLiteral("Ascend910B1"));
    QCOMPARE(c.limits.maxIterations, std::optional<int>(7));

    QTemporaryDir notATask;
    QVERIFY(!dialog.selectTaskDir(notATask.path()));
    QVERIFY2(dialog.errorText().contains(QStringLiteral("task.json")), qPrintable(dialog.errorText()));
    QVERIFY(dialog.choice().taskDir.endsWith(QStringLiteral("/add_custom")));  // the selection is kept

    const QString tiny = QStringLiteral(KWB_FIXTURES_DIR "/tasks/tiny_add");
    QVERIFY2(dialog.selectTaskDir(tiny), qPrintable(dialog.errorText()));
    QCOMPARE(dialog.choice().taskDir, tiny);
    QVERIFY(dialog.errorText().isEmpty());
    dialog.selectTaskDir(QStringLiteral(KWB_SOURCE_DIR "/resources/tasks/softmax_rows"));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY(dialog.grab().save(QStringLiteral(KWB_TEST_OUT_DIR "/new_session.png")));
  }

  void limitsEditorRoundTripsEveryLimit() {
    LimitsEditor e;
    SessionLimits l;
    l.maxIterations = 12;
    l.candidatesPerRound = 3;
    l.patience = 4;
    l.maxTokens = 250000;
    l.maxSeconds = 1800;
    l.targetSpeedup = 1.5;
    e.setLimits(l);
    QCOMPARE(e.limits(), l);
    e.setLimits(SessionLimits{});  // no limits at all
    QCOMPARE(e.limits(), SessionLimits{});
  }

  void settingsDialogCoversProviderLimitsAndSandbox() {
    LlmEndpointConfig p;
    p.provider = "anthropic";
    p.baseUrl = "https://api.example.test";
    p.model = "m";
    p.apiKeyEnv = "KWB_DIALOG_TEST_KEY";
    SessionDefaults d = builtinSessionDefaults();
    d.caseTimeoutSeconds = 17;
    d.limits.candidatesPerRound = 2;
    SettingsDialog dialog(p, d);
    QCOMPARE(dialog.tabs()->count(), 3);
    dialog.tabs()->setCurrentIndex(2);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY(dialog.grab().save(QStringLiteral(KWB_TEST_OUT_DIR "/settings_sandbox.png")));
    QCOMPARE(dialog.config().provider, std::string("anthropic"));
    QCOMPARE(dialog.config().baseUrl, p.baseUrl);
    QCOMPARE(dialog.config().apiKeyEnv, p.apiKeyEnv);
    QCOMPARE(dialog.defaults(), d);
    QVERIFY(!describeProvider(p).contains(QStringLiteral("KWB_DIALOG_TEST_KEY=")));
    QVERIFY(describeProvider(LlmEndpointConfig{}).contains(QStringLiteral("Not configured")));
  }

  void defaultsPersistInSettings() {
    QSettings s;
    QCOMPARE(loadSessionDefaults(s), builtinSessionDefaults());
    SessionDefaults d = builtinSessionDefaults();
    d.limits.maxIterations.reset();
    d.limits.maxSeconds = 600;
    d.limits.targetSpeedup = 2.0;
    d.caseTimeoutSeconds = 5;
    saveSessionDefaults(s, d);
    QSettings again;
    QCOMPARE(loadSessionDefaults(again), d);
  }
};

QTEST_MAIN(SessionDialogsTest)
#include "SessionDialogsTest.moc"
