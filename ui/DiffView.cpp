// SPDX-License-Identifier: MIT
#include "ui/DiffView.h"

#include "ui/CodeTheme.h"

#include <Qsci/qscilexercpp.h>
#include <Qsci/qsciscintilla.h>

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <set>

#include "core/diff/LineDiff.h"

namespace kwb::ui {
namespace {

enum Marker { RemovedMarker = 1, AddedMarker = 2, ChangedMarker = 3, PadMarker = 4 };

QsciScintilla* makeReadOnlyEditor(QWidget* parent) {
  auto* e = new QsciScintilla(parent);
  const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  auto* lexer = new QsciLexerCPP(e);
  lexer->setDefaultFont(mono);
  lexer->setFont(mono);
  e->setLexer(lexer);
  // Candidates guard kernel code with #if KWB_COMPILE_KERNEL: do not grey it out as inactive.
  e->SendScintilla(QsciScintillaBase::SCI_SETPROPERTY, "lexer.cpp.track.preprocessor", "0");
  e->setReadOnly(true);
  // Margin 0 shows each side's own line numbers as text: padding rows have none.
  e->setMarginType(0, QsciScintilla::TextMargin);
  e->setMarginWidth(0, QStringLiteral("00000"));
  e->setMarginWidth(1, 0);
  e->setMarginsFont(mono);
  e->markerDefine(QsciScintilla::Background, RemovedMarker);
  e->markerDefine(QsciScintilla::Background, AddedMarker);
  e->markerDefine(QsciScintilla::Background, ChangedMarker);
  e->markerDefine(QsciScintilla::Background, PadMarker);
  const DiffColours dc = diffColours(e->palette());
  e->setMarkerBackgroundColor(dc.removed, RemovedMarker);
  e->setMarkerBackgroundColor(dc.added, AddedMarker);
  e->setMarkerBackgroundColor(dc.changed, ChangedMarker);
  e->setMarkerBackgroundColor(dc.pad, PadMarker);
  applyCodeTheme(e, lexer, e->palette());
  return e;
}

QString fmtUs(const Iteration& it) {
  return it.profile && it.profile->totalUs > 0 ? QString::number(it.profile->totalUs, 'f', 2)
                                               : QStringLiteral("—");
}

QString verdictText(const Iteration& it) {
  return it.verdict ? QString::fromUtf8(verdictName(*it.verdict).data()) : QObject::tr("(none)");
}

}  // namespace

DiffView::DiffView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* header = new QHBoxLayout;
  title_ = new QLabel(tr("Select two iterations to compare"), this);
  mode_ = new QComboBox(this);
  mode_->addItems({tr("Side by side"), tr("Inline")});
  header->addWidget(title_, 1);
  header->addWidget(mode_);
  layout->addLayout(header);

  metrics_ = new QTableWidget(this);
  metrics_->setColumnCount(3);
  metrics_->verticalHeader()->setVisible(false);
  metrics_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  metrics_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  metrics_->setMaximumHeight(170);
  layout->addWidget(metrics_);

  stack_ = new QStackedWidget(this);
  auto* split = new QSplitter(Qt::Horizontal, stack_);
  leftEditor_ = makeReadOnlyEditor(split);
  rightEditor_ = makeReadOnlyEditor(split);
  split->addWidget(leftEditor_);
  split->addWidget(rightEditor_);
  inlineEditor_ = makeReadOnlyEditor(stack_);
  stack_->addWidget(split);
  stack_->addWidget(inlineEditor_);
  layout->addWidget(stack_, 1);

  // Rows are aligned (padding lines fill gaps), so scrolling one side by N lines scrolls the other by N.
  connect(leftEditor_->verticalScrollBar(), &QScrollBar::valueChanged, rightEditor_->verticalScrollBar(),
          &QScrollBar::setValue);
  connect(rightEditor_->verticalScrollBar(), &QScrollBar::valueChanged, leftEditor_->verticalScrollBar(),
          &QScrollBar::setValue);
  connect(mode_, &QComboBox::currentIndexChanged, this, [this](int i) { stack_->setCurrentIndex(i); });
}

void DiffView::setInline(bool inlineMode) {
  mode_->setCurrentIndex(inlineMode ? 1 : 0);
}

QString DiffView::inlineText() const {
  return inlineEditor_->text();
}

QString DiffView::title() const {
  return title_->text();
}

void DiffView::setAgainstStart(const Iteration& right, std::optional<double> baselineUs) {
  Iteration start;  // id 0: nothing written yet
  setIterations(start, right, baselineUs);
}

bool DiffView::isInline() const {
  return mode_->currentIndex() == 1;
}

void DiffView::clear() {
  compared_.reset();
  leftEditor_->clear();
  rightEditor_->clear();
  inlineEditor_->clear();
  metrics_->setRowCount(0);
  metrics_->setHorizontalHeaderLabels({tr("Metric"), QString(), QString()});
  changedRows_ = 0;
  title_->setText(tr("Select two iterations to compare"));
}

void DiffView::setIterations(const Iteration& left, const Iteration& right,
                             std::optional<double> baselineUs) {
  const std::string fileName = primaryCandidateFile(right.candidate).first;
  const std::string* l = left.candidate.file(fileName);
  const std::string* r = right.candidate.file(fileName);
  const std::string empty;
  const LineDiff diff = diffLines(l ? *l : empty, r ? *r : empty);

  QString leftText, rightText;
  std::vector<std::pair<int, int>> leftMarks, rightMarks;  // (row, marker)
  std::vector<QString> leftNums, rightNums;
  int row = 0;
  changedRows_ = 0;
  for (const auto& d : diff.rows) {
    leftText += QString::fromStdString(d.left) + QLatin1Char('\n');
    rightText += QString::fromStdString(d.right) + QLatin1Char('\n');
    leftNums.push_back(d.leftLine ? QString::number(d.leftLine) : QString());
    rightNums.push_back(d.rightLine ? QString::number(d.rightLine) : QString());
    switch (d.kind) {
      case DiffKind::Same:
        break;
      case DiffKind::Changed:
        leftMarks.emplace_back(row, ChangedMarker);
        rightMarks.emplace_back(row, ChangedMarker);
        break;
      case DiffKind::Removed:
        leftMarks.emplace_back(row, RemovedMarker);
        rightMarks.emplace_back(row, PadMarker);
        break;
      case DiffKind::Added:
        leftMarks.emplace_back(row, PadMarker);
        rightMarks.emplace_back(row, AddedMarker);
        break;
    }
    if (d.kind != DiffKind::Same) ++changedRows_;
    ++row;
  }
  auto fill = [](QsciScintilla* e, const QString& text, const auto& marks, const std::vector<QString>& nums) {
    e->setText(text);
    e->markerDeleteAll();
    for (auto [line, marker] : marks) e->markerAdd(line, marker);
    for (size_t i = 0; i < nums.size(); ++i) e->setMarginText(int(i), nums[i], 0);
  };
  fill(leftEditor_, leftText, leftMarks, leftNums);
  fill(rightEditor_, rightText, rightMarks, rightNums);

  const std::string unified = unifiedDiff(
      diff, (left.id == 0 ? std::string("start") : "#" + std::to_string(left.id)) + "/" + fileName,
      "#" + std::to_string(right.id) + "/" + fileName);
  inlineEditor_->setText(unified.empty() ? tr("(no changes in %1)").arg(QString::fromStdString(fileName))
                                         : QString::fromStdString(unified));
  inlineEditor_->markerDeleteAll();
  const QStringList inlineLines = inlineEditor_->text().split(QLatin1Char('\n'));
  for (int i = 0; i < inlineLines.size(); ++i) {
    if (inlineLines[i].startsWith(QLatin1String("+++")) || inlineLines[i].startsWith(QLatin1String("---")))
      continue;
    if (inlineLines[i].startsWith(QLatin1Char('+'))) inlineEditor_->markerAdd(i, AddedMarker);
    if (inlineLines[i].startsWith(QLatin1Char('-'))) inlineEditor_->markerAdd(i, RemovedMarker);
  }
  compared_ = std::make_pair(left.id, right.id);
  title_->setText(tr("%1 → iteration %2 · %3 · +%4 −%5 lines")
                      .arg(left.id == 0 ? tr("Task start (no kernel yet)") : tr("Iteration %1").arg(left.id))
                      .arg(right.id)
                      .arg(QString::fromStdString(fileName))
                      .arg(diff.added)
                      .arg(diff.removed));
  fillMetrics(left, right, baselineUs);
}

void DiffView::fillMetrics(const Iteration& left, const Iteration& right, std::optional<double> baselineUs) {
  metrics_->clear();
  metrics_->setHorizontalHeaderLabels({tr("Metric"),
                                       left.id == 0 ? tr("Task start") : tr("Iteration %1").arg(left.id),
                                       tr("Iteration %1").arg(right.id)});
  struct RowData {
    QString name, a, b;
  };
  std::vector<RowData> rows = {{tr("Verdict"), verdictText(left), verdictText(right)},
                               {tr("Latency µs"), fmtUs(left), fmtUs(right)}};
  if (baselineUs) {
    auto sp = [&](const Iteration& it) {
      return it.verdict == Verdict::Pass && it.profile && it.profile->totalUs > 0
                 ? QStringLiteral("%1×").arg(*baselineUs / it.profile->totalUs, 0, 'f', 2)
                 : QStringLiteral("—");
    };
    rows.push_back({tr("Speedup vs baseline"), sp(left), sp(right)});
  }
  auto bound = [](const Iteration& it) {
    return it.profile && !it.profile->bound.empty() ? QString::fromStdString(it.profile->bound)
                                                    : QStringLiteral("—");
  };
  rows.push_back({tr("Bound"), bound(left), bound(right)});
  std::set<std::string> pipes;
  for (const Iteration* it : {&left, &right})
    if (it->profile)
      for (const auto& [name, stat] : it->profile->pipes) pipes.insert(name);
  for (const auto& p : pipes) {
    auto ratio = [&](const Iteration& it) {
      if (!it.profile) return QStringLiteral("—");
      auto f = it.profile->pipes.find(p);
      return f == it.profile->pipes.end() ? QStringLiteral("—")
                                          : QStringLiteral("%1%").arg(f->second.ratio * 100, 0, 'f', 1);
    };
    rows.push_back({tr("%1 utilisation").arg(QString::fromStdString(p)), ratio(left), ratio(right)});
  }
  metrics_->setRowCount(int(rows.size()));
  for (int i = 0; i < int(rows.size()); ++i) {
    metrics_->setItem(i, 0, new QTableWidgetItem(rows[size_t(i)].name));
    metrics_->setItem(i, 1, new QTableWidgetItem(rows[size_t(i)].a));
    auto* b = new QTableWidgetItem(rows[size_t(i)].b);
    if (rows[size_t(i)].a != rows[size_t(i)].b) {
      QFont f = b->font();
      f.setBold(true);
      b->setFont(f);
    }
    metrics_->setItem(i, 2, b);
  }
}

}  // namespace kwb::ui
