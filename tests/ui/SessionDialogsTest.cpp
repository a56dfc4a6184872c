// SPDX-License-Identifier: MIT
// The new-session dialog (task, backend, SoC, provider, limits), the settings dialog (provider, limits,
// sandbox) and the session defaults they share.
#include <QDir>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <map>

#include "tests/ui/UiTestSupport.h"
#include "ui/LimitsEditor.h"
#include "ui/MainWindow.h"
#include "ui/NewSessionDialog.h"
#include "ui/ProviderSettings.h"
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

  void longProviderSummariesAndTaskErrorsWrapAndAreShownWhole() {
    const QString summary = QStringLiteral(
        "openai · qwen2.5-coder-32b-instruct-awq at https://inference.gateway.internal.example.com/team/"
        "kernels/openai/compat/v1 · key from $KERNEL_TEAM_GATEWAY_API_KEY · KWB_LLM_BASE_URL, KWB_LLM_MODEL "
        "from the environment (overrides Settings)");
    NewSessionDialog dialog(QStringLiteral(KWB_SOURCE_DIR "/resources/tasks"), builtinSessionDefaults(),
                            summary);
    dialog.resize(640, dialog.sizeHint().height());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTemporaryDir root;
    const QString bad = root.path() + QStringLiteral(
                                          "/a_folder_with_a_rather_long_name_that_is_not_a_task/"
                                          "and_a_subfolder_whose_name_is_just_as_long_as_the_first");
    QVERIFY(QDir().mkpath(bad));
    QVERIFY(!dialog.selectTaskDir(bad));
    QVERIFY(dialog.errorText().contains(bad));
    QTest::qWait(100);  // the layout settles
    auto* info = dialog.findChild<QLabel*>(QStringLiteral("taskInfo"));
    auto* error = dialog.findChild<QLabel*>(QStringLiteral("taskError"));
    auto* provider = dialog.findChild<QLabel*>(QStringLiteral("providerSummary"));
    // QFAIL returns where the analyzer can see it (clang-tidy cannot tell that QVERIFY returns on false).
    if (!info || !error || !provider) QFAIL("the dialog's labels are missing");
    QVERIFY(error->isVisible());
    for (QLabel* l : {info, error, provider}) {
      const QRect inDialog(l->mapTo(&dialog, QPoint(0, 0)), l->size());
      // Inside the dialog (not cut at its right edge) and tall enough for every wrapped line.
      QVERIFY2(dialog.rect().contains(inDialog),
               qPrintable(QStringLiteral("%1 at %2,%3 %4x%5 in a %6x%7 dialog")
                              .arg(l->objectName())
                              .arg(inDialog.x())
                              .arg(inDialog.y())
                              .arg(inDialog.width())
                              .arg(inDialog.height())
                              .arg(dialog.width())
                              .arg(dialog.height())));
      QVERIFY2(l->height() >= l->heightForWidth(l->width()),
               qPrintable(QStringLiteral("%1: %2 px high, needs %3")
                              .arg(l->objectName())
                              .arg(l->height())
                              .arg(l->heightForWidth(l->width()))));
    }
    const QRect infoRect(info->mapTo(&dialog, QPoint(0, 0)), info->size());
    const QRect errorRect(error->mapTo(&dialog, QPoint(0, 0)), error->size());
    QVERIFY(!infoRect.intersects(errorRect));  // never drawn over the description
    QVERIFY(dialog.grab().save(QStringLiteral(KWB_TEST_OUT_DIR "/new_session_error.png")));
  }

  // The same button takes a kernel-launch sample folder (<op>.cpp beside main.cpp).
  void importingAKernelLaunchSampleSelectsTheNewTask() {
    NewSessionDialog dialog(QStringLiteral(KWB_SOURCE_DIR "/resources/tasks"), builtinSessionDefaults(),
                            QStringLiteral("replay"));
    QTemporaryDir root;
    dialog.setImportRoot(root.path());
    QSignalSpy finished(&dialog, &NewSessionDialog::importFinished);
    dialog.importOperatorProject(QStringLiteral(KWB_FIXTURES_DIR "/kernel_launch/relu_custom"),
                                 QStringLiteral(KWB_FIXTURES_DIR "/kernel_launch/relu_custom.cases.json"),
                                 QStringLiteral(KWB_SOURCE_DIR "/resources/tasks/relu_custom/reference.cpp"));
    QVERIFY(finished.wait(20000));
    QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
    QVERIFY(QFile::exists(dialog.choice().taskDir + QStringLiteral("/imported/relu_custom.cpp")));
    QVERIFY(dialog.errorText().isEmpty());
  }

  // "Import an operator project…": the project becomes a task folder (read and written off the GUI
  // thread), the dialog selects it, and a broken project is refused naming its file and line.
  void importingAnOperatorProjectSelectsTheNewTask() {
    NewSessionDialog dialog(QStringLiteral(KWB_SOURCE_DIR "/resources/tasks"), builtinSessionDefaults(),
                            QStringLiteral("replay"));
    QTemporaryDir root;
    dialog.setImportRoot(root.path());
    QSignalSpy finished(&dialog, &NewSessionDialog::importFinished);
    const QString cases = QStringLiteral(KWB_FIXTURES_DIR "/op_projects/add_custom.cases.json");
    const QString reference = QStringLiteral(KWB_SOURCE_DIR "/resources/tasks/add_custom/reference.cpp");
    dialog.importOperatorProject(QStringLiteral(KWB_FIXTURES_DIR "/op_projects/add_custom"), cases,
                                 reference);
    QVERIFY(dialog.importing());
    QVERIFY(finished.wait(20000));
    QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
    const QString taskDir = dialog.choice().taskDir;
    QVERIFY2(taskDir.startsWith(root.path()), qPrintable(taskDir));
    QVERIFY(QFile::exists(taskDir + QStringLiteral("/task.json")));
    QVERIFY(QFile::exists(taskDir + QStringLiteral("/imported/add_custom.cpp")));
    QVERIFY(dialog.errorText().isEmpty());

    // The same project with an unknown dtype in its OpDef: refused, and the error names the line.
    QTemporaryDir broken;
    const QString proj = broken.path() + QStringLiteral("/add_custom");
    QVERIFY(QDir().mkpath(proj + QStringLiteral("/op_host")) &&
            QDir().mkpath(proj + QStringLiteral("/op_kernel")));
    for (const QString& rel :
         QDir(QStringLiteral(KWB_FIXTURES_DIR "/op_projects/add_custom/op_host")).entryList(QDir::Files))
      QVERIFY(QFile::copy(QStringLiteral(KWB_FIXTURES_DIR "/op_projects/add_custom/op_host/") + rel,
                          proj + QStringLiteral("/op_host/") + rel));
    for (const QString& rel :
         QDir(QStringLiteral(KWB_FIXTURES_DIR "/op_projects/add_custom/op_kernel")).entryList(QDir::Files))
      QVERIFY(QFile::copy(QStringLiteral(KWB_FIXTURES_DIR "/op_projects/add_custom/op_kernel/") + rel,
                          proj + QStringLiteral("/op_kernel/") + rel));
    QFile host(proj + QStringLiteral("/op_host/add_custom.cpp"));
    QVERIFY(host.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(host.readAll());
    host.close();
    QVERIFY(text.contains(QStringLiteral("ge::DT_FLOAT16")));
    text.replace(QStringLiteral("ge::DT_FLOAT16"), QStringLiteral("ge::DT_COMPLEX64"));
    QVERIFY(host.open(QIODevice::WriteOnly | QIODevice::Truncate));
    host.write(text.toUtf8());
    host.close();
    finished.clear();
    dialog.importOperatorProject(proj, cases, reference);
    QVERIFY(finished.wait(20000));
    QVERIFY(!finished.at(0).at(0).toBool());
    const QString error = dialog.errorText();
    QVERIFY2(error.contains(QStringLiteral("op_host/add_custom.cpp:")) &&
                 error.contains(QStringLiteral("DT_COMPLEX64")),
             qPrintable(error));
    QCOMPARE(dialog.choice().taskDir, taskDir);  // the earlier import stays selected
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
    QCOMPARE(dialog.tabs()->count(), 4);  // provider, limits, sandbox, backend (RemoteHostSettingsTest)
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

  void environmentOverridesAreNamedWhereTheValueIsShown() {
    const std::map<std::string, std::string> vars{{"KWB_LLM_MODEL", "qwen-from-env"},
                                                  {"KWB_LLM_BASE_URL", "http://env.example:8000/v1"}};
    const EnvLookup env = [&](const std::string& n) -> std::optional<std::string> {
      auto it = vars.find(n);
      return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
    QSettings s;
    LlmEndpointConfig stored;
    stored.provider = "openai";
    stored.baseUrl = "http://stored.example/v1";
    stored.model = "stored-model";
    stored.apiKeyEnv = "MY_STORED_KEY";
    saveProviderSettings(s, stored);

    // Each variable replaces its own field; the others stay as stored.
    const LlmEndpointConfig effective = loadProviderSettings(s, env);
    QCOMPARE(effective.provider, std::string("openai"));
    QCOMPARE(effective.baseUrl, std::string("http://env.example:8000/v1"));
    QCOMPARE(effective.model, std::string("qwen-from-env"));
    QCOMPARE(effective.apiKeyEnv, std::string("MY_STORED_KEY"));
    const auto overrides = providerOverrides(env);
    QCOMPARE(overrides.size(), std::size_t(2));

    SettingsDialog dialog(loadStoredProviderSettings(s, env), builtinSessionDefaults(), nullptr, overrides,
                          providerEnvironmentWarnings(env, QStringList{QStringLiteral("KWB_LLM_MODLE")}));
    QVERIFY2(dialog.overrideNote(ProviderField::Model).contains(QStringLiteral("$KWB_LLM_MODEL")) &&
                 dialog.overrideNote(ProviderField::Model).contains(QStringLiteral("qwen-from-env")),
             qPrintable(dialog.overrideNote(ProviderField::Model)));
    QVERIFY(dialog.overrideNote(ProviderField::BaseUrl).contains(QStringLiteral("$KWB_LLM_BASE_URL")));
    QVERIFY(dialog.overrideNote(ProviderField::Provider).isEmpty());
    QVERIFY(dialog.overrideNote(ProviderField::ApiKeyEnv).isEmpty());
    // The dialog edits what is stored: saving it never writes the environment's values into Settings.
    QCOMPARE(dialog.config().model, std::string("stored-model"));
    QCOMPARE(dialog.config().baseUrl, std::string("http://stored.example/v1"));
    QVERIFY2(dialog.environmentWarningText().contains(QStringLiteral("did you mean KWB_LLM_MODEL?")),
             qPrintable(dialog.environmentWarningText()));
    const QString summary = describeProvider(effective, overrides);
    QVERIFY2(summary.contains(QStringLiteral("KWB_LLM_BASE_URL, KWB_LLM_MODEL from the environment")),
             qPrintable(summary));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY(dialog.grab().save(QStringLiteral(KWB_TEST_OUT_DIR "/settings_overrides.png")));
  }

  void theWindowSaysWhenKwbLlmVariablesAreMisspelt() {
    qputenv("KWB_LLM_MODLE", "qwen");
    ui::WorkbenchApp app(QStringLiteral(KWB_SOURCE_DIR "/resources"), settingsDir_.path());
    qunsetenv("KWB_LLM_MODLE");
    auto* notice = app.window()->findChild<QLabel*>(QStringLiteral("environmentWarnings"));
    QVERIFY(notice);
    QVERIFY2(
        notice->toolTip().contains(QStringLiteral("KWB_LLM_MODLE is not a variable kwb reads; did you mean "
                                                  "KWB_LLM_MODEL?")),
        qPrintable(notice->toolTip()));
    ui::WorkbenchApp clean(QStringLiteral(KWB_SOURCE_DIR "/resources"), settingsDir_.path());
    QVERIFY(!clean.window()->findChild<QLabel*>(QStringLiteral("environmentWarnings")));
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
