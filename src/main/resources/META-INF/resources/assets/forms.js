// A second click while the first submission is on its way does nothing; the server is safe either way.
document.addEventListener('submit', function (event) {
  var buttons = event.target.querySelectorAll('button[type=submit]');
  // Disabled only once the browser has taken the clicked button's action, or the submission would lose it.
  setTimeout(function () {
    buttons.forEach(function (button) { button.disabled = true; });
  }, 0);
});

// Coming back to a page from the history brings its buttons back too.
window.addEventListener('pageshow', function () {
  document.querySelectorAll('button[type=submit]').forEach(function (button) { button.disabled = false; });
});
