// SPDX-License-Identifier: MIT
#pragma once
// The suite view (docs/suites.md, "The suite view"; Session ▸ Open suite… or --suite DIR): a window over
// one suite folder with a summary header (overall compile@1, correct@k, fast_1, where the times ran),
// the tasks x samples grid (SuiteGridModel) and the report's plots (fast_p over p, iterations to the
// first correct kernel). The folder is read on a helper thread, never on the GUI thread; while samples
// are still to finish, a timer asks a helper thread whether anything in the folder changed
// (suiteFingerprint) and reads it again when it did. Double-clicking a sample asks the workbench to open
// its session (openSessionRequested).

#include <QWidget>
#include <filesystem>
#include <memory>
#include <thread>

#include "ui/SuiteSnapshot.h"

class QLabel;
class QTableView;
class QTimer;
class QPushButton;
class QTabWidget;

namespace kwb::ui {

class SuiteGridModel;
class SuiteCompareModel;
class SuiteFastPChart;
class SuiteIterationsChart;

class SuiteView : public QWidget {
  Q_OBJECT
 public:
  explicit SuiteView(const QString& suiteDir, QWidget* parent = nullptr);
  ~SuiteView() override;
  SuiteView(const SuiteView&) = delete;
  SuiteView& operator=(const SuiteView&) = delete;

  QString suiteDir() const { return dir_; }
  // Reads the folder again now (on a helper thread), changed or not; no-op while a read is in flight.
  void reload();
  // Shows this suite (A) against another suite folder (B) in the "A vs B" tab: B is read on a helper
  // thread, the comparison is core/suite's compareSuiteReports (kwb suite compare's rows).
  void compareWith(const QString& otherSuiteDir);
  // How often a suite still running is checked for changes (default 2 s).
  void setRefreshInterval(int ms);
  bool refreshing() const;

  SuiteGridModel* gridModel() const { return model_; }
  QTableView* grid() const { return grid_; }
  QLabel* header() const { return header_; }
  SuiteFastPChart* fastPChart() const { return fastP_; }
  SuiteIterationsChart* iterationsChart() const { return iterations_; }
  // How many snapshots have been shown (tests wait on it).
  int shownSnapshots() const { return shown_; }
  SuiteCompareModel* compareModel() const { return compareModel_; }
  QLabel* compareHeader() const { return compareHeader_; }
  QTabWidget* tabs() const { return tabs_; }

 signals:
  void openSessionRequested(const QString& sessionDir);
  void snapshotShown();
  void comparisonShown(bool ok);

 private:
  // Starts a read on the helper thread; with `onlyIfChanged` it first compares the folder's fingerprint.
  void startRead(bool onlyIfChanged);
  void showSnapshot(SuiteSnapshot snapshot);
  void refreshHeader();
  void openCell(const QModelIndex& index);
  void showComparison(const QString& otherDir, const SuiteSnapshot& other);
  void closeEvent(QCloseEvent* event) override;

  QString dir_;
  QLabel* header_;
  QTableView* grid_;
  SuiteGridModel* model_;
  SuiteFastPChart* fastP_;
  SuiteIterationsChart* iterations_;
  QPushButton* reload_;
  QPushButton* compare_;
  QTabWidget* tabs_;
  QLabel* compareHeader_;
  QTableView* compareView_;
  SuiteCompareModel* compareModel_;
  std::thread compareWorker_;
  bool compareInFlight_ = false;
  QTimer* refresh_;
  std::thread worker_;
  bool inFlight_ = false;
  bool closed_ = false;
  int shown_ = 0;
  std::string fingerprint_;  // of the snapshot shown
};

}  // namespace kwb::ui
