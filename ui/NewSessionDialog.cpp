// SPDX-License-Identifier: MIT
#include "ui/NewSessionDialog.h"
#include "ui/Plural.h"

#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QResizeEvent>
#include <QStandardItemModel>
#include <QThread>
#include <QVBoxLayout>

#include "core/agent/ImportedTask.h"
#include "core/base/InstallLayout.h"
#include "core/model/Task.h"
#include "core/toolchain/CannInstallation.h"
#include "ui/LimitsEditor.h"

namespace kwb::ui {
namespace {

// Paths and URLs have no spaces to wrap at: a zero-width space after each separator lets a label break
// a long one there instead of widening the dialog past the screen or cutting the text.
QString breakableText(const QString& text) {
  QString out;
  out.reserve(text.size() + text.size() / 8);
  for (const QChar c : text) {
    out += c;
    if (c == QLatin1Char('/') || c == QLatin1Char('_') || c == QLatin1Char('-') || c == QLatin1Char('.') ||
        c == QLatin1Char('?') || c == QLatin1Char('&') || c == QLatin1Char('='))
      out += QChar(0x200B);
  }
  return out;
}

}  // namespace

NewSessionDialog::NewSessionDialog(const QString& tasksDir, const SessionDefaults& defaults,
                                   const QString& providerSummary, QWidget* parent)
    : QDialog(parent) {
  setWindowTitle(tr("New session"));
  auto* layout = new QVBoxLayout(this);
  auto* form = new QFormLayout;
  task_ = new QComboBox(this);
  const QDir dir(tasksDir);
  for (const QString& t : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
    if (QFile::exists(dir.filePath(t) + QStringLiteral("/task.json"))) task_->addItem(t, dir.filePath(t));
  auto* browse = new QPushButton(tr("Task folder…"), this);
  browse->setToolTip(tr("Any folder with a task.json (see docs/task-format.md)"));
  auto* taskRow = new QHBoxLayout;
  taskRow->addWidget(task_, 1);
  taskRow->addWidget(browse);
  import_ = new QPushButton(tr("Import an operator project…"), this);
  import_->setToolTip(
      tr("A msopgen custom-operator project (op_host/ with its OpDef and tiling, op_kernel/) or a "
         "kernel-launch sample folder (<op>.cpp beside main.cpp): its signature becomes the task, its "
         "kernel iteration 1 (docs/task-format.md)"));
  taskRow->addWidget(import_);
  form->addRow(tr("Task"), taskRow);
  taskInfo_ = new QLabel(this);
  taskInfo_->setObjectName(QStringLiteral("taskInfo"));
  taskInfo_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  taskInfo_->setWordWrap(true);
  form->addRow(QString(), taskInfo_);
  error_ = new QLabel(this);
  error_->setObjectName(QStringLiteral("taskError"));
  error_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  error_->setTextFormat(Qt::PlainText);  // a message may quote anything, markup included
  error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  error_->setWordWrap(true);
  error_->setStyleSheet(QStringLiteral("color: #c0392b"));
  error_->hide();
  form->addRow(QString(), error_);

  backend_ = new QComboBox(this);
  backend_->setObjectName(QStringLiteral("backend"));
  backend_->addItem(tr("Built-in Ascend C emulator (CPU, no NPU needed)"), QStringLiteral("ascend-sim"));
  const auto cann = detectCann();
  backend_->addItem(cann && cann->bisheng
                        ? tr("CANN toolkit (%1)").arg(QString::fromStdString(cann->root.string()))
                        : tr("CANN toolkit (not found on this machine)"),
                    QStringLiteral("ascend-cann"));
  if (!(cann && cann->bisheng)) {
    if (auto* model = qobject_cast<QStandardItemModel*>(backend_->model())) model->item(1)->setEnabled(false);
    backend_->setItemData(1, tr("Set ASCEND_TOOLKIT_HOME or install CANN to run on the toolkit"),
                          Qt::ToolTipRole);
  }
  backend_->addItem(QString(), QString::fromLatin1(kRemoteBackendChoice));
  defaultBackend_ = defaults.backend;
  if (defaults.backend == QStringLiteral("ascend-cann") && cann && cann->bisheng)
    backend_->setCurrentIndex(1);
  setRemoteHost({});
  form->addRow(tr("Backend"), backend_);

  soc_ = new QComboBox(this);
  const QDir socs(QString::fromStdString((currentInstallLayout().dataRoot / "resources" / "soc").string()));
  for (const QString& f : socs.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
    soc_->addItem(QFileInfo(f).completeBaseName());
  form->addRow(tr("SoC"), soc_);

  provider_ = new QLabel(this);
  provider_->setObjectName(QStringLiteral("providerSummary"));
  provider_->setTextFormat(Qt::PlainText);
  provider_->setWordWrap(true);
  auto* change = new QPushButton(tr("Change…"), this);
  // The summary is a field of its own: a word-wrapped label nested in a row layout gets one line's
  // height in a form, and the rest of a long summary was cut.
  form->addRow(tr("LLM provider"), provider_);
  auto* changeRow = new QHBoxLayout;
  changeRow->addWidget(change);
  changeRow->addStretch(1);
  form->addRow(QString(), changeRow);
  layout->addLayout(form);

  auto* limitsBox = new QGroupBox(tr("Limits"), this);
  auto* lb = new QVBoxLayout(limitsBox);
  limits_ = new LimitsEditor(limitsBox);
  limits_->setLimits(defaults.limits);
  lb->addWidget(limits_);
  layout->addWidget(limitsBox);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  ok_ = buttons->button(QDialogButtonBox::Ok);
  ok_->setText(tr("Create session"));
  layout->addWidget(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(change, &QPushButton::clicked, this, &NewSessionDialog::providerSettingsRequested);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString d = QFileDialog::getExistingDirectory(this, tr("Task folder"));
    if (!d.isEmpty()) selectTaskDir(d);
  });
  connect(import_, &QPushButton::clicked, this, &NewSessionDialog::askImport);
  connect(task_, &QComboBox::currentIndexChanged, this, &NewSessionDialog::taskChanged);
  setProviderSummary(providerSummary);
  const int add = task_->findText(QStringLiteral("add_custom"));
  if (add >= 0) task_->setCurrentIndex(add);
  taskChanged();
}

void NewSessionDialog::showError(const QString& message) {
  const bool wasShown = !errorText_.isEmpty();
  errorText_ = message;
  error_->setText(breakableText(message));
  error_->setVisible(!message.isEmpty());
  relayout();
  if (wasShown && message.isEmpty()) {
    // The dialog grew for the error: give the room back.
    const int needed = layout()->totalHeightForWidth(width());
    if (needed > 0 && needed < height()) resize(width(), needed);
  }
}

void NewSessionDialog::relayout() {
  // A label that appears or rewraps changes the height the form needs for its width; a dialog does
  // not grow by itself for height-for-width content, so its rows would overlap or be cut.
  layout()->activate();
  const int needed = layout()->totalHeightForWidth(width());
  if (needed > height()) resize(width(), needed);
}

void NewSessionDialog::resizeEvent(QResizeEvent* event) {
  QDialog::resizeEvent(event);
  if (layout()) {
    const int needed = layout()->totalHeightForWidth(width());
    if (needed > height()) QMetaObject::invokeMethod(this, "relayout", Qt::QueuedConnection);
  }
}

void NewSessionDialog::taskChanged() {
  const QString dir = task_->currentData().toString();
  showError({});
  try {
    const Task t = loadTaskDir(dir.toStdString());
    taskInfo_->setText(
        tr("<i>%1</i> · %2 · %3 · SoC %4")
            .arg(QString::fromStdString(t.description).toHtmlEscaped(), QString::fromStdString(t.category),
                 countOf(qint64(t.cases.size()), tr("case"), tr("cases")), QString::fromStdString(t.soc)));
    const int s = soc_->findText(QString::fromStdString(t.soc));
    if (s >= 0) soc_->setCurrentIndex(s);
    ok_->setEnabled(true);
    relayout();
  } catch (const std::exception& e) {
    taskInfo_->clear();
    showError(QString::fromUtf8(e.what()));
    ok_->setEnabled(false);
  }
}

bool NewSessionDialog::selectTaskDir(const QString& dir) {
  try {
    const Task t = loadTaskDir(dir.toStdString());
    int at = task_->findData(dir);
    if (at < 0) {
      task_->addItem(QStringLiteral("%1 (%2)").arg(QString::fromStdString(t.name), dir), dir);
      at = task_->count() - 1;
    }
    task_->setCurrentIndex(at);
    taskChanged();
    return true;
  } catch (const std::exception& e) {
    showError(tr("%1 is not a usable task: %2").arg(dir, QString::fromUtf8(e.what())));
    return false;
  }
}

QString NewSessionDialog::errorText() const {
  return errorText_;
}

void NewSessionDialog::setProviderSummary(const QString& summary) {
  provider_->setText(breakableText(summary));
  provider_->setToolTip(summary);
  relayout();
}

void NewSessionDialog::setRemoteHost(const RemoteHostSettings& host) {
  const int at = backend_->findData(QString::fromLatin1(kRemoteBackendChoice));
  auto* model = qobject_cast<QStandardItemModel*>(backend_->model());
  if (at < 0 || !model) return;
  const RemoteHostProblems problems = checkRemoteHost(host);
  const bool usable = !problems.any();
  backend_->setItemText(at, usable ? tr("Remote NPU host over SSH (%1)").arg(host.url)
                                   : tr("Remote NPU host over SSH (not set up)"));
  backend_->setItemData(
      at,
      usable ? tr("Builds and runs on %1 with its CANN toolkit (Tools ▸ Backend and remote NPU host…)")
                   .arg(host.url)
             : tr("Set the host in Tools ▸ Backend and remote NPU host… — %1").arg(problems.summary()),
      Qt::ToolTipRole);
  model->item(at)->setEnabled(usable);
  if (!usable && backend_->currentIndex() == at) backend_->setCurrentIndex(0);
  if (usable && defaultBackend_ == QLatin1String(kRemoteBackendChoice)) backend_->setCurrentIndex(at);
}

int NewSessionDialog::taskCount() const {
  return task_->count();
}

NewSessionChoice NewSessionDialog::choice() const {
  NewSessionChoice c;
  c.taskDir = task_->currentData().toString();
  c.backend = backend_->currentData().toString();
  c.soc = soc_->currentText();
  c.limits = limits_->limits();
  return c;
}

void NewSessionDialog::askImport() {
  const QString project = QFileDialog::getExistingDirectory(
      this, tr("Operator project (the folder with op_host/) or kernel-launch sample (with main.cpp)"));
  if (project.isEmpty()) return;
  const QString cases = QFileDialog::getOpenFileName(
      this, tr("Verification cases (a JSON array, docs/task-format.md)"), project, tr("JSON (*.json)"));
  if (cases.isEmpty()) return;
  const QString reference = QFileDialog::getOpenFileName(this, tr("Reference implementation (reference.cpp)"),
                                                         project, tr("C++ (*.cpp *.cc)"));
  if (reference.isEmpty()) return;
  importOperatorProject(project, cases, reference);
}

void NewSessionDialog::importOperatorProject(const QString& projectDir, const QString& casesFile,
                                             const QString& referenceFile) {
  if (importing_) return;
  if (importRoot_.isEmpty()) {
    finishImport(false, tr("No folder to write imported tasks to"), {});
    return;
  }
  importing_ = true;
  import_->setEnabled(false);
  showError({});
  taskInfo_->setText(tr("Importing %1…").arg(breakableText(projectDir)));
  const QString stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
  const std::string root = importRoot_.toStdString();
  OperatorProjectImportOptions options;
  options.casesFile = casesFile.toStdString();
  options.referenceFile = referenceFile.toStdString();
  const std::string project = projectDir.toStdString();
  QPointer<NewSessionDialog> self(this);
  // The project, its cases and its reference are read (and the task written) off the GUI thread.
  QThread* worker = QThread::create([self, project, options, root, stamp] {
    bool ok = false;
    QString message;
    QString taskDir;
    try {
      const OperatorProjectImport r = kwb::importOperatorProject(project, options);
      if (!r.ok()) {
        QStringList lines;
        for (const auto& e : r.errors) lines << QString::fromStdString(e.format());
        message = lines.join(QLatin1Char('\n'));
      } else {
        const std::filesystem::path out =
            std::filesystem::path(root) / (r.task.name + "-" + stamp.toStdString());
        const std::string failed = writeImportedTask(r, out);
        ok = failed.empty();
        message = ok ? QString::fromStdString(r.task.name) : QString::fromStdString(failed);
        taskDir = QString::fromStdString(out.string());
      }
    } catch (const std::exception& e) {
      message = QString::fromUtf8(e.what());
    }
    QMetaObject::invokeMethod(qApp, [self, ok, message, taskDir] {
      if (self) self->finishImport(ok, message, taskDir);
    });
  });
  connect(worker, &QThread::finished, worker, &QObject::deleteLater);
  worker->start();
}

void NewSessionDialog::finishImport(bool ok, const QString& message, const QString& taskDir) {
  importing_ = false;
  import_->setEnabled(true);
  if (ok && selectTaskDir(taskDir)) {
    emit importFinished(true, tr("Imported %1 as the task in %2").arg(message, taskDir));
    return;
  }
  const QString shown = ok ? errorText_ : tr("Cannot import the operator project: %1").arg(message);
  if (!ok) {
    taskChanged();
    showError(shown);
  }
  emit importFinished(false, shown);
}

}  // namespace kwb::ui
