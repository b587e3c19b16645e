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

// From the next page on, times are shown in this browser's time zone rather than the shop's.
(function () {
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (unsupported) {
    return;
  }
  if (zone && !document.cookie.split('; ').includes('tz=' + zone)) {
    document.cookie = 'tz=' + zone + '; path=/; max-age=31536000; samesite=lax';
  }
}());
