// SPDX-License-Identifier: MIT
#pragma once
// The iteration timeline as a tree: a chain of iterations stays on one level (the first child of an
// iteration continues its line, like a commit log), and every further child starts a nested branch
// under the iteration it was rolled back to. Thousands of iterations stay a flat, fast list.

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
  enum Role { IterationIdRole = Qt::UserRole + 1, IsBranchStartRole, IsAcceptedRole };

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
    int childCount = 0;           // children in the iteration tree (not rows)
    bool branchStart = false;
  };
  std::vector<Node*>& containerOf(Node* owner);
  void place(Node* node, bool notify);
  QModelIndex indexOfNode(const Node* node, int column) const;

  std::vector<std::unique_ptr<Node>> storage_;
  std::unordered_map<int, Node*> nodes_;
  StatusIcons icons_;
  std::vector<Node*> top_;
  std::optional<int> accepted_;
  std::optional<int> paused_;
  std::optional<double> baselineUs_;
};

}  // namespace kwb::ui
