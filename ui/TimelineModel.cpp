// SPDX-License-Identifier: MIT
#include "ui/TimelineModel.h"

#include <QFont>

namespace kwb::ui {

TimelineModel::TimelineModel(QObject* parent) : QAbstractItemModel(parent) {}
TimelineModel::~TimelineModel() = default;

std::vector<TimelineModel::Node*>& TimelineModel::containerOf(Node* owner) {
  return owner ? owner->branches : top_;
}

// Where a node goes: the first child of P continues P's line (P is then the last row of its list,
// because a node only gets rows after it through its first child); later children nest under P.
void TimelineModel::place(Node* node, bool notify) {
  Node* parentNode = nullptr;
  if (node->iteration.parentId) {
    auto it = nodes_.find(*node->iteration.parentId);
    if (it != nodes_.end()) parentNode = it->second;
  }
  Node* owner = nullptr;
  if (parentNode) {
    if (parentNode->childCount == 0) {
      owner = parentNode->owner;
    } else {
      owner = parentNode;
      node->branchStart = true;
    }
    ++parentNode->childCount;
  }
  auto& list = containerOf(owner);
  node->owner = owner;
  node->row = int(list.size());
  if (notify) beginInsertRows(owner ? indexOfNode(owner, 0) : QModelIndex(), node->row, node->row);
  list.push_back(node);
  nodes_[node->iteration.id] = node;
  if (notify) endInsertRows();
}

void TimelineModel::setIcons(StatusIcons icons) {
  icons_ = std::move(icons);
  if (rowCount() > 0)
    emit dataChanged(index(0, StatusColumn), index(rowCount() - 1, StatusColumn), {Qt::DecorationRole});
}

void TimelineModel::setSession(const Session& session) {
  beginResetModel();
  storage_.clear();
  nodes_.clear();
  top_.clear();
  std::vector<const Iteration*> ordered;
  for (const auto& it : session.iterations) ordered.push_back(&it);
  std::sort(ordered.begin(), ordered.end(), [](auto* a, auto* b) { return a->id < b->id; });
  storage_.reserve(ordered.size());
  nodes_.reserve(ordered.size());
  for (const Iteration* it : ordered) {
    storage_.push_back(std::make_unique<Node>());
    storage_.back()->iteration = *it;
    place(storage_.back().get(), false);
  }
  accepted_ = session.acceptedIteration;
  baselineUs_ =
      session.task.baseline ? std::optional<double>(session.task.baseline->latencyUs) : std::nullopt;
  endResetModel();
}

void TimelineModel::upsertIteration(const Iteration& iteration) {
  if (auto it = nodes_.find(iteration.id); it != nodes_.end()) {
    it->second->iteration = iteration;
    emit dataChanged(indexOfNode(it->second, 0), indexOfNode(it->second, ColumnCount - 1));
    return;
  }
  storage_.push_back(std::make_unique<Node>());
  storage_.back()->iteration = iteration;
  place(storage_.back().get(), true);
}

void TimelineModel::setAccepted(std::optional<int> iterationId) {
  auto refresh = [this](std::optional<int> id) {
    if (!id) return;
    if (auto it = nodes_.find(*id); it != nodes_.end())
      emit dataChanged(indexOfNode(it->second, 0), indexOfNode(it->second, ColumnCount - 1));
  };
  const auto old = accepted_;
  accepted_ = iterationId;
  refresh(old);
  refresh(accepted_);
}

void TimelineModel::setPausedIteration(std::optional<int> iterationId) {
  if (paused_ == iterationId) return;
  const auto old = paused_;
  paused_ = iterationId;
  for (const auto id : {old, paused_})
    if (id)
      if (auto it = nodes_.find(*id); it != nodes_.end())
        emit dataChanged(indexOfNode(it->second, StatusColumn), indexOfNode(it->second, StatusColumn));
}

void TimelineModel::setBaselineUs(std::optional<double> baselineUs) {
  baselineUs_ = baselineUs;
  if (!top_.empty()) emit dataChanged(index(0, SpeedupColumn), index(int(top_.size()) - 1, SpeedupColumn));
  for (auto& [id, node] : nodes_)
    if (node->owner) emit dataChanged(indexOfNode(node, SpeedupColumn), indexOfNode(node, SpeedupColumn));
}

QModelIndex TimelineModel::indexOfNode(const Node* node, int column) const {
  return createIndex(node->row, column, const_cast<Node*>(node));
}

QModelIndex TimelineModel::indexOfIteration(int id, int column) const {
  auto it = nodes_.find(id);
  return it == nodes_.end() ? QModelIndex() : indexOfNode(it->second, column);
}

const Iteration* TimelineModel::iteration(const QModelIndex& index) const {
  if (!index.isValid()) return nullptr;
  return &static_cast<const Node*>(index.internalPointer())->iteration;
}

QModelIndex TimelineModel::index(int row, int column, const QModelIndex& parent) const {
  if (column < 0 || column >= ColumnCount || row < 0) return {};
  const std::vector<Node*>& list =
      parent.isValid() ? static_cast<Node*>(parent.internalPointer())->branches : top_;
  if (parent.isValid() && parent.column() != 0) return {};
  if (row >= int(list.size())) return {};
  return createIndex(row, column, list[size_t(row)]);
}

QModelIndex TimelineModel::parent(const QModelIndex& child) const {
  if (!child.isValid()) return {};
  const Node* node = static_cast<const Node*>(child.internalPointer());
  return node->owner ? indexOfNode(node->owner, 0) : QModelIndex();
}

int TimelineModel::rowCount(const QModelIndex& parent) const {
  if (!parent.isValid()) return int(top_.size());
  if (parent.column() != 0) return 0;
  return int(static_cast<const Node*>(parent.internalPointer())->branches.size());
}

int TimelineModel::columnCount(const QModelIndex&) const {
  return ColumnCount;
}

namespace {

QString statusText(const Iteration& it) {
  if (it.verdict) {
    switch (*it.verdict) {
      case Verdict::Pass:
        return QObject::tr("pass");
      case Verdict::CompileError:
        return QObject::tr("compile error");
      case Verdict::RuntimeError:
        return QObject::tr("runtime error");
      case Verdict::WrongAnswer:
        return QObject::tr("wrong answer");
      case Verdict::Timeout:
        return QObject::tr("timeout");
      case Verdict::Rejected:
        return QObject::tr("rejected");
    }
  }
  switch (it.state) {
    case IterationState::Pending:
      return QObject::tr("pending");
    case IterationState::Generating:
      return QObject::tr("generating…");
    case IterationState::Compiling:
      return QObject::tr("compiling…");
    case IterationState::Running:
      return QObject::tr("running…");
    case IterationState::Verifying:
      return QObject::tr("verifying…");
    case IterationState::Profiling:
      return QObject::tr("profiling…");
    case IterationState::Stopped:
      return QObject::tr("stopped");
    case IterationState::Failed:
      return QObject::tr("failed");
    case IterationState::Done:
      return QObject::tr("done");
  }
  return {};
}

// Compile, run and verify, each ✓ (ok), ✗ (failed), … (in flight) or · (not reached).
struct StageMarks {
  QString text;
  QString tip;
};

StageMarks stageMarks(const Iteration& it) {
  auto mark = [](std::optional<bool> ok, bool inFlight) {
    if (ok) return *ok ? QStringLiteral("✓") : QStringLiteral("✗");
    return inFlight ? QStringLiteral("…") : QStringLiteral("·");
  };
  const std::optional<bool> compiled = it.compile ? std::optional<bool>(it.compile->ok) : std::nullopt;
  const std::optional<bool> ran =
      it.run ? std::optional<bool>(it.run->status == RunStatus::Ok) : std::nullopt;
  // Verified ✓ only when every case ran: a failed run leaves cases unverified even if the ones that ran
  // matched, so the iteration's verification did not pass.
  const std::optional<bool> verified =
      it.verify ? std::optional<bool>(it.verify->passed() && ran.value_or(true)) : std::nullopt;
  StageMarks m;
  m.text = mark(compiled, it.state == IterationState::Compiling) + QLatin1Char(' ') +
           mark(ran, it.state == IterationState::Running) + QLatin1Char(' ') +
           mark(verified, it.state == IterationState::Verifying);
  QStringList tip;
  tip << (it.compile ? QObject::tr("compile: %1%2")
                           .arg(it.compile->ok ? QObject::tr("ok") : QObject::tr("failed"),
                                it.compile->cached ? QObject::tr(" (cached)") : QString())
                     : QObject::tr("compile: not reached"));
  tip << (it.run ? QObject::tr("run: %1 on the %2")
                       .arg(QString::fromUtf8(runStatusName(it.run->status).data()),
                            QString::fromUtf8(ranOnName(it.run->ranOn).data()))
                 : QObject::tr("run: not reached"));
  tip << (!it.verify ? QObject::tr("verify: not reached")
          : ran == false
              ? QObject::tr("verify: not every case ran")
              : QObject::tr("verify: %1").arg(QString::fromUtf8(verdictName(it.verify->verdict).data())));
  m.tip = tip.join(QStringLiteral(" · "));
  return m;
}

QIcon statusIcon(const Iteration& it, const StatusIcons& icons) {
  if (!it.verdict) {
    if (it.state == IterationState::Failed || it.state == IterationState::Stopped) return icons.warning;
    return isFinal(it.state) ? QIcon() : icons.running;
  }
  return *it.verdict == Verdict::Pass ? icons.pass : icons.fail;
}

double durationMs(const Iteration& it) {
  double ms = 0.0;
  if (it.usage) ms += it.usage->durationMs;
  if (it.compile) ms += it.compile->durationMs;
  if (it.run) ms += it.run->durationMs;
  return ms;
}

}  // namespace

QVariant TimelineModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  const Node* node = static_cast<const Node*>(index.internalPointer());
  const Iteration& it = node->iteration;
  const bool accepted = accepted_ && *accepted_ == it.id;
  switch (role) {
    case IterationIdRole:
      return it.id;
    case IsBranchStartRole:
      return node->branchStart;
    case IsAcceptedRole:
      return accepted;
    case Qt::FontRole:
      if (accepted) {
        QFont f;
        f.setBold(true);
        return f;
      }
      return {};
    case Qt::DecorationRole:
      if (index.column() == StatusColumn)
        return paused_ == it.id && !isFinal(it.state) ? icons_.paused : statusIcon(it, icons_);
      return {};
    case Qt::TextAlignmentRole:
      if (index.column() >= LatencyColumn) return int(Qt::AlignRight | Qt::AlignVCenter);
      return {};
    case Qt::ToolTipRole:
      if (index.column() == LatencyColumn && it.profile)
        return it.profile->source == "emulator-model"
                   ? tr("Estimated by the emulator's cost model for %1 — not a device measurement")
                         .arg(QString::fromStdString(it.profile->soc))
                   : tr("Measured with %1").arg(QString::fromStdString(it.profile->source));
      if (index.column() == StagesColumn) return stageMarks(it).tip;
      if (index.column() == IdColumn && node->branchStart && it.parentId)
        return tr("Branch started from iteration %1").arg(*it.parentId);
      return {};
    case Qt::DisplayRole:
      break;
    default:
      return {};
  }
  switch (index.column()) {
    case IdColumn: {
      QString s = QString::number(it.id);
      if (node->branchStart && it.parentId) s = QStringLiteral("↳ %1 (from %2)").arg(it.id).arg(*it.parentId);
      if (accepted) s += QStringLiteral(" ★");
      return s;
    }
    case OriginColumn:
      return QString::fromUtf8(originName(it.candidate.origin).data());
    case StatusColumn:
      if (paused_ == it.id && !isFinal(it.state) && !it.verdict)
        return tr("paused (%1)").arg(statusText(it).remove(QStringLiteral("…")));
      return statusText(it);
    case StagesColumn:
      return stageMarks(it).text;
    case LatencyColumn:
      if (it.profile && it.profile->totalUs > 0) return QString::number(it.profile->totalUs, 'f', 2);
      return {};
    case SpeedupColumn:
      if (it.profile && it.profile->totalUs > 0 && baselineUs_)
        return QStringLiteral("%1×").arg(*baselineUs_ / it.profile->totalUs, 0, 'f', 2);
      return {};
    case TokensColumn:
      if (it.usage) return QString::number(it.usage->promptTokens + it.usage->completionTokens);
      return {};
    case DurationColumn: {
      const double ms = durationMs(it);
      if (ms <= 0) return {};
      return ms < 1000 ? QStringLiteral("%1 ms").arg(ms, 0, 'f', 0)
                       : QStringLiteral("%1 s").arg(ms / 1000, 0, 'f', 1);
    }
  }
  return {};
}

QVariant TimelineModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole && section == StagesColumn)
    return tr("Compile, run, verify: ✓ ok, ✗ failed, … in flight, · not reached");
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case IdColumn:
      return tr("#");
    case OriginColumn:
      return tr("Origin");
    case StatusColumn:
      return tr("Status");
    case StagesColumn:
      return tr("C R V");
    case LatencyColumn:
      return tr("Latency µs");
    case SpeedupColumn:
      return tr("Speedup");
    case TokensColumn:
      return tr("Tokens");
    case DurationColumn:
      return tr("Duration");
  }
  return {};
}

}  // namespace kwb::ui
