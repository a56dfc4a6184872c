// SPDX-License-Identifier: MIT
#pragma once
// The first-run tour (docs/workbench.md, "First-run tour"): a few pages on what each panel is, how to
// start a lesson and how to connect an LLM provider. Shown once on a new user's first launch, skippable;
// finishing or skipping it is remembered in the user's settings (QSettings "tour/done"), and Help ▸ Tour
// of the workbench shows it again.

#include <QDialog>
#include <QString>
#include <vector>

class QLabel;
class QPushButton;

namespace kwb::ui {

class FirstRunTour : public QDialog {
  Q_OBJECT
 public:
  explicit FirstRunTour(QWidget* parent = nullptr);

  static bool done();
  static void setDone(bool done);

  int page() const { return page_; }
  int pageCount() const { return static_cast<int>(pages_.size()); }
  QString pageTitle() const;
  QString pageText() const;
  QPushButton* nextButton() const { return next_; }
  QPushButton* backButton() const { return back_; }
  QPushButton* skipButton() const { return skip_; }

 private:
  struct Page {
    QString title;
    QString text;
  };
  void showPage(int index);

  std::vector<Page> pages_;
  int page_ = 0;
  QLabel* title_;
  QLabel* text_;
  QLabel* counter_;
  QPushButton* back_;
  QPushButton* next_;
  QPushButton* skip_;
};

}  // namespace kwb::ui
