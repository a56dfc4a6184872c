// SPDX-License-Identifier: MIT
#include "ui/SuiteView.h"

#include <QCloseEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include "core/suite/SuiteCompare.h"
#include "ui/Plural.h"
#include "ui/SuiteCompareModel.h"
#include "ui/SuiteFastPChart.h"
#include "ui/SuiteGridModel.h"
#include "ui/SuiteIterationsChart.h"

namespace kwb::ui {

namespace {

QString percent(const std::optional<double>& v) {
  return v ? QStringLiteral("%1%").arg(*v * 100.0, 0, 'f', 0) : QStringLiteral("—");
}

template <typename Key>
std::optional<double> valueAt(const std::map<Key, std::optional<double>>& values, Key key) {
  const auto it = values.find(key);
  return it == values.end() ? std::nullopt : it->second;
}

}  // namespace

SuiteView::SuiteView(const QString& suiteDir, QWidget* parent)
    : QWidget(parent, Qt::Window),
      dir_(suiteDir),
      header_(new QLabel(this)),
      grid_(new QTableView(this)),
      model_(new SuiteGridModel(this)),
      fastP_(new SuiteFastPChart(this)),
      iterations_(new SuiteIterationsChart(this)),
      reload_(new QPushButton(tr("Reload"), this)),
      compare_(new QPushButton(tr("Compare with…"), this)),
      tabs_(new QTabWidget(this)),
      compareHeader_(new QLabel(this)),
      compareView_(new QTableView(this)),
      compareModel_(new SuiteCompareModel(this)),
      refresh_(new QTimer(this)) {
  setObjectName(QStringLiteral("suiteView"));
  setWindowTitle(tr("Suite — %1").arg(suiteDir));
  header_->setObjectName(QStringLiteral("suiteHeader"));
  header_->setTextFormat(Qt::RichText);
  header_->setWordWrap(true);
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  header_->setText(tr("Reading %1…").arg(suiteDir.toHtmlEscaped()));
  grid_->setModel(model_);
  grid_->setObjectName(QStringLiteral("suiteGrid"));
  grid_->setWordWrap(true);
  grid_->setSelectionMode(QAbstractItemView::SingleSelection);
  grid_->verticalHeader()->hide();
  grid_->horizontalHeader()->setStretchLastSection(false);
  connect(grid_, &QTableView::doubleClicked, this, &SuiteView::openCell);
  reload_->setToolTip(tr("Read the suite folder again"));
  connect(reload_, &QPushButton::clicked, this, &SuiteView::reload);

  compare_->setToolTip(tr("Show this suite (A) against another suite folder (B), as kwb suite compare"));
  connect(compare_, &QPushButton::clicked, this, [this] {
    const QString other = QFileDialog::getExistingDirectory(this, tr("Compare with suite folder"));
    if (!other.isEmpty()) compareWith(other);
  });
  auto* buttons = new QVBoxLayout;
  buttons->addWidget(reload_);
  buttons->addWidget(compare_);
  buttons->addStretch(1);
  auto* top = new QHBoxLayout;
  top->addWidget(header_, 1);
  top->addLayout(buttons);
  auto* plots = new QSplitter(Qt::Horizontal, this);
  plots->addWidget(fastP_);
  plots->addWidget(iterations_);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(grid_);
  split->addWidget(plots);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  compareHeader_->setObjectName(QStringLiteral("suiteCompareHeader"));
  compareHeader_->setWordWrap(true);
  compareHeader_->setTextFormat(Qt::PlainText);
  compareHeader_->setText(tr("Compare with… shows another suite folder against this one."));
  compareView_->setModel(compareModel_);
  compareView_->verticalHeader()->hide();
  compareView_->horizontalHeader()->setStretchLastSection(true);
  auto* comparePage = new QWidget(this);
  auto* compareLayout = new QVBoxLayout(comparePage);
  compareLayout->addWidget(compareHeader_);
  compareLayout->addWidget(compareView_, 1);
  tabs_->addTab(split, tr("Samples and plots"));
  tabs_->addTab(comparePage, tr("A vs B"));
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(tabs_, 1);
  resize(1200, 800);

  refresh_->setInterval(2000);
  connect(refresh_, &QTimer::timeout, this, [this] { startRead(true); });
  startRead(false);
}

SuiteView::~SuiteView() {
  refresh_->stop();
  if (worker_.joinable()) worker_.join();
  if (compareWorker_.joinable()) compareWorker_.join();
}

void SuiteView::compareWith(const QString& otherSuiteDir) {
  if (compareInFlight_) return;
  compareInFlight_ = true;
  if (compareWorker_.joinable()) compareWorker_.join();
  compareHeader_->setText(tr("Reading %1…").arg(otherSuiteDir));
  tabs_->setCurrentIndex(1);
  const std::filesystem::path dir = otherSuiteDir.toStdString();
  compareWorker_ = std::thread([this, dir, otherSuiteDir] {
    auto other = std::make_shared<SuiteSnapshot>(readSuiteSnapshot(dir));
    QMetaObject::invokeMethod(
        this,
        [this, other, otherSuiteDir] {
          compareInFlight_ = false;
          showComparison(otherSuiteDir, *other);
        },
        Qt::QueuedConnection);
  });
}

void SuiteView::showComparison(const QString& otherDir, const SuiteSnapshot& other) {
  const SuiteSnapshot& mine = model_->snapshot();
  QString why;
  if (!mine.report)
    why = tr("this suite (A) could not be read: %1").arg(QString::fromStdString(mine.error));
  else if (!other.report)
    why = tr("%1 (B) is not a readable suite folder: %2").arg(otherDir, QString::fromStdString(other.error));
  if (why.isEmpty()) {
    try {
      const nlohmann::json comparison = suite::compareSuiteReports(
          suite::suiteReportJson(*mine.report), suite::suiteReportJson(*other.report), dir_.toStdString(),
          otherDir.toStdString());
      compareModel_->setComparison(comparison);
      const auto& times = comparison["timing_source"];
      compareHeader_->setText(tr("A: %1\nB: %2\nWhere the times ran: A %3; B %4")
                                  .arg(dir_, otherDir, QString::fromStdString(times.value("a", "")),
                                       QString::fromStdString(times.value("b", ""))));
      compareView_->resizeColumnsToContents();
      emit comparisonShown(true);
      return;
    } catch (const std::exception& e) {
      why = QString::fromUtf8(e.what());
    }
  }
  compareModel_->clear();
  compareHeader_->setText(tr("Cannot compare: %1").arg(why));
  emit comparisonShown(false);
}

void SuiteView::closeEvent(QCloseEvent* event) {
  closed_ = true;  // a closed view reads nothing more
  refresh_->stop();
  QWidget::closeEvent(event);
}

void SuiteView::setRefreshInterval(int ms) {
  refresh_->setInterval(ms);
}

bool SuiteView::refreshing() const {
  return refresh_->isActive();
}

void SuiteView::reload() {
  startRead(false);
}

void SuiteView::startRead(bool onlyIfChanged) {
  if (inFlight_) return;
  inFlight_ = true;
  if (worker_.joinable()) worker_.join();  // the previous read has delivered its result already
  const std::filesystem::path dir = dir_.toStdString();
  const std::string known = onlyIfChanged ? fingerprint_ : std::string();
  worker_ = std::thread([this, dir, known, onlyIfChanged] {
    auto snapshot = std::make_shared<SuiteSnapshot>();
    const bool unchanged = onlyIfChanged && suiteFingerprint(dir) == known;
    if (!unchanged) *snapshot = readSuiteSnapshot(dir);
    // The view joins this thread before it goes, so `this` outlives the call being queued.
    QMetaObject::invokeMethod(
        this,
        [this, snapshot, unchanged] {
          inFlight_ = false;
          if (!unchanged) showSnapshot(std::move(*snapshot));
        },
        Qt::QueuedConnection);
  });
}

void SuiteView::showSnapshot(SuiteSnapshot snapshot) {
  fingerprint_ = snapshot.fingerprint;
  const bool watch = snapshot.error.empty() && !snapshot.complete && !closed_;
  model_->setSnapshot(std::move(snapshot));
  const SuiteSnapshot& s = model_->snapshot();
  grid_->clearSpans();
  for (int row = model_->taskCount(); row < model_->rowCount(); ++row)
    grid_->setSpan(row, 1, 1, model_->columnCount() - 1);
  grid_->resizeColumnsToContents();
  for (int c = 1; c < model_->columnCount(); ++c)
    grid_->setColumnWidth(c, std::clamp(grid_->columnWidth(c), 90, 260));
  grid_->resizeRowsToContents();
  if (s.report) {
    fastP_->setMetrics(s.report->metrics);
    iterations_->setSamples(s.report->samples);
  }
  refreshHeader();
  if (watch)
    refresh_->start();
  else
    refresh_->stop();
  ++shown_;
  emit snapshotShown();
}

void SuiteView::refreshHeader() {
  const SuiteSnapshot& s = model_->snapshot();
  if (!s.error.empty()) {
    header_->setText(tr("<b>%1 is not a readable suite folder</b><br>%2")
                         .arg(dir_.toHtmlEscaped(), QString::fromStdString(s.error).toHtmlEscaped()));
    return;
  }
  const suite::SuiteReport& r = *s.report;
  const suite::GroupMetrics& o = r.metrics.overall;
  std::map<SampleVerdict, int> counts;
  for (const auto& row : s.cells)
    for (const auto& c : row) ++counts[c.verdict];
  QStringList overall;
  overall << tr("compile@1 %1").arg(percent(valueAt(o.compileAtK, 1)));
  for (int k : r.metrics.options.ks)
    if (k <= r.plan.samples) overall << tr("correct@%1 %2").arg(k).arg(percent(valueAt(o.correctAtK, k)));
  overall << tr("fast_1 vs expert %1").arg(percent(valueAt(o.fastVsExpert, 1.0)));
  overall << tr("fast_1 vs task baseline %1").arg(percent(valueAt(o.fastVsTask, 1.0)));
  if (o.meanIterationsToCorrect)
    overall << tr("%1 iterations to first correct (mean)").arg(*o.meanIterationsToCorrect, 0, 'f', 1);
  QStringList state;
  for (SampleVerdict v :
       {SampleVerdict::Pass, SampleVerdict::Fail, SampleVerdict::CompileError, SampleVerdict::Running,
        SampleVerdict::Unfinished, SampleVerdict::NotStarted, SampleVerdict::Error})
    if (counts[v] > 0) state << QStringLiteral("%1 %2").arg(counts[v]).arg(QString::fromUtf8(verdictName(v)));
  const QString model = QString::fromStdString(r.plan.settings.model);
  header_->setText(
      tr("<b>%1</b> — %2 × %3 · backend %4%5<br><b>Overall:</b> %6<br><b>Where the times ran:</b> %7<br>%8%9")
          .arg(dir_.toHtmlEscaped(), countOf(qint64(r.plan.tasks.size()), tr("task"), tr("tasks")),
               countOf(r.plan.samples, tr("sample"), tr("samples")),
               QString::fromStdString(r.plan.settings.backend).toHtmlEscaped(),
               model.isEmpty() ? QString() : tr(" · model %1").arg(model.toHtmlEscaped()),
               overall.join(QStringLiteral(" · ")).toHtmlEscaped(),
               QString::fromStdString(r.timingSource).toHtmlEscaped(), state.join(QStringLiteral(", ")),
               s.complete ? tr(" · every sample finished") : tr(" · refreshing as samples finish")));
}

void SuiteView::openCell(const QModelIndex& index) {
  const QString dir = index.data(SuiteGridModel::SessionDirRole).toString();
  // An error cell's session may open fine (a damaged marker): the workbench says so when it does not.
  if (!dir.isEmpty()) emit openSessionRequested(dir);
}

}  // namespace kwb::ui
