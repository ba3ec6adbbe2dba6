//! A progress bar on stderr for long runs, shown only when stderr is a terminal (so pipes,
//! files and tests see clean output).

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// A bar counting `len` steps with a message, or a hidden bar when stderr is not a terminal.
pub fn bar(len: u64, message: &'static str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} ({eta})") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(message);
    bar
}
