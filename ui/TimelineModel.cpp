// SPDX-License-Identifier: MIT
#include "ui/TimelineModel.h"

#include <QFont>
#include <algorithm>

namespace kwb::ui {

TimelineModel::TimelineModel(QObject* parent) : QAbstractItemModel(parent) {}
TimelineModel::~TimelineModel() = default;

std::vector<TimelineModel::Node*>& TimelineModel::containerOf(Node* owner) {
  return owner ? owner->branches : top_;
}

// One line: `start`, then the child holding the newest iteration of each node's subtree, appended to
// the owner's list; every other child of a node on the line starts a branch nested under that node.
// Recursion is per branch, not per iteration, so a long chain lays out in a loop.
void TimelineModel::placeLine(Node* start, Node* owner, bool branchStart) {
  auto& list = containerOf(owner);
  for (Node* node = start; node;) {
    node->owner = owner;
    node->row = int(list.size());
    node->branchStart = node == start && branchStart;
    list.push_back(node);
    Node* next = nullptr;
    for (Node* child : node->children)
      if (!next || child->newestInSubtree > next->newestInSubtree) next = child;
    for (Node* child : node->children)
      if (child != next) placeLine(child, node, true);
    node = next;
  }
}

void TimelineModel::layOut() {
  std::sort(storage_.begin(), storage_.end(),
            [](const auto& a, const auto& b) { return a->iteration.id < b->iteration.id; });
  top_.clear();
  nodes_.clear();
  for (auto& n : storage_) {
    n->branches.clear();
    n->children.clear();
    n->parentNode = nullptr;
    n->newestInSubtree = n->iteration.id;
    nodes_[n->iteration.id] = n.get();
  }
  // A parent always has a smaller id (core/model/Iteration.h); a link that breaks that rule, or points
  // at an iteration not in the model, makes the node a root, so a damaged session cannot form a cycle.
  for (auto& n : storage_)
    if (n->iteration.parentId && *n->iteration.parentId < n->iteration.id)
      if (auto p = nodes_.find(*n->iteration.parentId); p != nodes_.end()) {
        n->parentNode = p->second;
        p->second->children.push_back(n.get());
      }
  for (auto it = storage_.rbegin(); it != storage_.rend(); ++it)
    if (Node* p = (*it)->parentNode)
      p->newestInSubtree = std::max(p->newestInSubtree, (*it)->newestInSubtree);
  for (auto& n : storage_)
    if (!n->parentNode) placeLine(n.get(), nullptr, false);
  mainLineEnd_ = top_.empty() ? nullptr : top_.back();
}

// By history, not by layout: an iteration is a branch when its parent already had an earlier child.
// (The layout may put a branch on the main line, when it holds the newest iteration, and nest the
// older line instead; the older line's first iteration is then nested but no branch.)
TimelineModel::BranchCause TimelineModel::branchCause(const Node& node) {
  if (!node.parentNode || node.parentNode->children.empty() || node.parentNode->children.front() == &node)
    return BranchCause::None;
  if (node.iteration.candidate.origin == Origin::Human || node.iteration.origin == Origin::Human)
    return BranchCause::HumanEdit;
  return node.iteration.afterRollback ? BranchCause::Rollback : BranchCause::AgentRetry;
}

void TimelineModel::setIcons(StatusIcons icons) {
  icons_ = std::move(icons);
  if (rowCount() > 0)
    emit dataChanged(index(0, StatusColumn), index(rowCount() - 1, StatusColumn), {Qt::DecorationRole});
}

void TimelineModel::setSession(const Session& session) {
  beginResetModel();
  storage_.clear();
  storage_.reserve(session.iterations.size());
  for (const auto& it : session.iterations) {
    storage_.push_back(std::make_unique<Node>());
    storage_.back()->iteration = it;
  }
  layOut();
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
  const bool newest = nodes_.empty() || iteration.id > storage_.back()->iteration.id;
  const bool continuesMainLine =
      newest && mainLineEnd_ && iteration.parentId == mainLineEnd_->iteration.id && !mainLineEnd_->owner;
  storage_.push_back(std::make_unique<Node>());
  Node* node = storage_.back().get();
  node->iteration = iteration;
  if (continuesMainLine || (newest && !iteration.parentId)) {
    // The common live case: the newest iteration extends the main line (or starts a new root).
    node->newestInSubtree = iteration.id;
    if (iteration.parentId) {
      node->parentNode = mainLineEnd_;
      mainLineEnd_->children.push_back(node);
      for (Node* a = mainLineEnd_; a; a = a->parentNode) a->newestInSubtree = iteration.id;
    }
    node->row = int(top_.size());
    beginInsertRows({}, node->row, node->row);
    top_.push_back(node);
    nodes_[iteration.id] = node;
    mainLineEnd_ = node;
    endInsertRows();
    return;
  }
  // A new branch moves the main line to it (it holds the newest iteration): lay the tree out again.
  beginResetModel();
  layOut();
  endResetModel();
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
  // One signal per list of nested rows, not per row: every dataChanged makes the view lay its
  // ResizeToContents columns out again, so per-row signals cost O(N^2) in a 10,000-iteration session.
  for (auto& [id, node] : nodes_)
    if (!node->branches.empty())
      emit dataChanged(indexOfNode(node->branches.front(), SpeedupColumn),
                       indexOfNode(node->branches.back(), SpeedupColumn));
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
    case BranchCauseRole:
      return int(branchCause(*node));
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
      if (index.column() == IdColumn && it.parentId) {
        switch (branchCause(*node)) {
          case BranchCause::AgentRetry:
            return tr("The agent built on iteration %1 again (its best so far) and started this branch")
                .arg(*it.parentId);
          case BranchCause::Rollback:
            return tr("You rolled back to iteration %1: this branch starts there").arg(*it.parentId);
          case BranchCause::HumanEdit:
            return tr("Your edit of iteration %1, run as a branch of its own").arg(*it.parentId);
          case BranchCause::None:
            break;
        }
      }
      return {};
    case Qt::DisplayRole:
      break;
    default:
      return {};
  }
  switch (index.column()) {
    case IdColumn: {
      QString s = QString::number(it.id);
      if (it.parentId) {
        switch (branchCause(*node)) {
          case BranchCause::AgentRetry:
            s = tr("↳ %1 agent, from %2").arg(it.id).arg(*it.parentId);
            break;
          case BranchCause::Rollback:
            s = tr("⟲ %1 rolled back to %2").arg(it.id).arg(*it.parentId);
            break;
          case BranchCause::HumanEdit:
            s = tr("✎ %1 edit of %2").arg(it.id).arg(*it.parentId);
            break;
          case BranchCause::None:
            break;
        }
      }
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
      // Only a correct kernel has a speedup: a failed run's time is not an achievement.
      if (it.verdict == Verdict::Pass && it.profile && it.profile->totalUs > 0 && baselineUs_)
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
