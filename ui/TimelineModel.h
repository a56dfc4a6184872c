// SPDX-License-Identifier: MIT
#pragma once
// The iteration timeline as a tree a reader follows top to bottom. The main line is the chain from the
// first iteration to the newest one, in id order, on the top level; every other child of an iteration
// starts a branch nested under it (branches in id order, each laid out by the same rule). Each node's
// line continues with the child whose subtree holds the newest iteration, so the rows read in the order
// they happened. How a branch came about is marked: the agent building on its best again, the engineer
// rolling back, or the engineer's own edit (BranchCauseRole, the # column's text and tooltip).
// Thousands of iterations stay a flat, fast list; a new iteration on the main line is appended, any
// other one re-lays the tree out (a model reset).

#include <QAbstractItemModel>

#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>
#include "ui/StatusIcons.h"

#include "core/model/Session.h"

namespace kwb::ui {

class TimelineModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  enum Column {
    IdColumn,
    OriginColumn,
    StatusColumn,
    StagesColumn,
    LatencyColumn,
    SpeedupColumn,
    TokensColumn,
    DurationColumn,
    ColumnCount
  };
  enum Role { IterationIdRole = Qt::UserRole + 1, IsBranchStartRole, IsAcceptedRole, BranchCauseRole };
  // Why an iteration does not continue its parent's line (BranchCauseRole, as an int).
  enum class BranchCause { None, AgentRetry, Rollback, HumanEdit };

  explicit TimelineModel(QObject* parent = nullptr);
  ~TimelineModel() override;

  // The status icons (none until set: this model does not depend on a widget style).
  void setIcons(StatusIcons icons);
  void setSession(const Session& session);
  // Adds the iteration or refreshes its row (live progress while a step is in flight).
  void upsertIteration(const Iteration& iteration);
  void setAccepted(std::optional<int> iterationId);
  // The iteration the paused agent holds mid-way: shown "paused" with the pause icon, not "compiling…".
  void setPausedIteration(std::optional<int> iterationId);
  void setBaselineUs(std::optional<double> baselineUs);

  QModelIndex indexOfIteration(int id, int column = 0) const;
  const Iteration* iteration(const QModelIndex& index) const;
  int iterationCount() const { return int(nodes_.size()); }

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  struct Node {
    Iteration iteration;
    Node* owner = nullptr;        // node whose `branches` list holds this one; null = top level
    int row = 0;                  // position in that list
    std::vector<Node*> branches;  // rows nested under this node
    Node* parentNode = nullptr;   // the parent iteration, when it is in the model
    std::vector<Node*> children;  // child iterations, in id order
    int newestInSubtree = 0;      // the highest id of this node and its descendants
    bool branchStart = false;
  };
  std::vector<Node*>& containerOf(Node* owner);
  // Lays every node out again from the parent links (caller resets the model).
  void layOut();
  void placeLine(Node* start, Node* owner, bool branchStart);
  static BranchCause branchCause(const Node& node);
  QModelIndex indexOfNode(const Node* node, int column) const;

  std::vector<std::unique_ptr<Node>> storage_;
  std::unordered_map<int, Node*> nodes_;
  StatusIcons icons_;
  std::vector<Node*> top_;
  Node* mainLineEnd_ = nullptr;  // the last row of the top level: a new child of it is a plain append
  std::optional<int> accepted_;
  std::optional<int> paused_;
  std::optional<double> baselineUs_;
};

}  // namespace kwb::ui
