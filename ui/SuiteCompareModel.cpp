// SPDX-License-Identifier: MIT
#include "ui/SuiteCompareModel.h"

#include <limits>

namespace kwb::ui {

namespace {

QString text(const nlohmann::json& v, bool signedNumber = false) {
  if (v.is_null()) return QStringLiteral("—");
  if (v.is_number_integer()) return QString::number(v.get<long long>());
  if (v.is_number()) {
    const double d = v.get<double>();
    return (signedNumber && d > 0 ? QStringLiteral("+") : QString()) + QString::number(d, 'f', 3);
  }
  if (v.is_string()) return QString::fromStdString(v.get<std::string>());
  return QString::fromStdString(v.dump());
}

QString stringAt(const nlohmann::json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? QString::fromStdString(j[key].get<std::string>())
                                               : QString();
}

}  // namespace

SuiteCompareModel::SuiteCompareModel(QObject* parent) : QAbstractTableModel(parent) {}

void SuiteCompareModel::clear() {
  beginResetModel();
  rows_.clear();
  labelA_.clear();
  labelB_.clear();
  endResetModel();
}

void SuiteCompareModel::setComparison(const nlohmann::json& comparison) {
  beginResetModel();
  rows_.clear();
  labelA_ = stringAt(comparison, "a");
  labelB_ = stringAt(comparison, "b");
  if (comparison.contains("rows") && comparison["rows"].is_array())
    for (const auto& r : comparison["rows"]) {
      if (!r.is_object()) continue;
      rows_.push_back({stringAt(r, "group"), stringAt(r, "metric"), r.value("a", nlohmann::json()),
                       r.value("b", nlohmann::json()), r.value("delta", nlohmann::json())});
    }
  endResetModel();
}

int SuiteCompareModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(rows_.size());
}

int SuiteCompareModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant SuiteCompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case GroupColumn:
      return tr("Group");
    case MetricColumn:
      return tr("Metric");
    case AColumn:
      return tr("A");
    case BColumn:
      return tr("B");
    case DeltaColumn:
      return tr("B − A");
    default:
      return {};
  }
}

QVariant SuiteCompareModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
  const Row& r = rows_[std::size_t(index.row())];
  const nlohmann::json* value = index.column() == AColumn       ? &r.a
                                : index.column() == BColumn     ? &r.b
                                : index.column() == DeltaColumn ? &r.delta
                                                                : nullptr;
  switch (role) {
    case Qt::DisplayRole:
      if (index.column() == GroupColumn) return r.group;
      if (index.column() == MetricColumn) return r.metric;
      return text(*value, index.column() == DeltaColumn);
    case Qt::ToolTipRole:
      if (index.column() == AColumn) return labelA_;
      if (index.column() == BColumn) return labelB_;
      return {};
    case Qt::TextAlignmentRole:
      return value ? int(Qt::AlignRight | Qt::AlignVCenter) : int(Qt::AlignLeft | Qt::AlignVCenter);
    case ValueRole:
      return value && value->is_number() ? value->get<double>() : std::numeric_limits<double>::quiet_NaN();
    default:
      return {};
  }
}

}  // namespace kwb::ui
