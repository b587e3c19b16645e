// The cart's total, kept up to date as quantities change. Without this script the form works all the
// same: its "Review total" button asks the server for the total before anything is ordered.
(function () {
  'use strict';
  var output = document.getElementById('cart-total');
  if (!output) {
    return;
  }
  var quantities = Array.prototype.slice.call(document.querySelectorAll('input[data-price]'));
  var WHOLE_NUMBER = /^\d{1,4}$/;
  var MAX_QUANTITY = 1000;

  // Amounts as whole minor units (12.50 is 1250), so that adding them up is exact; the page writes
  // every price with its currency's number of decimals.
  function minorUnits(price) {
    return parseInt(price.replace('.', ''), 10);
  }

  function decimals(price) {
    var dot = price.indexOf('.');
    return dot < 0 ? 0 : price.length - dot - 1;
  }

  function written(minor, places) {
    var digits = String(minor).padStart(places + 1, '0');
    return places === 0 ? digits : digits.slice(0, -places) + '.' + digits.slice(-places);
  }

  var LANGUAGE = document.documentElement.lang;

  // Money as the page's language writes it, like the server: "25.00 CNY" in English, "¥25.00" in Chinese.
  function money(amount, currency) {
    if (LANGUAGE.indexOf('zh') !== 0 || typeof Intl === 'undefined') {
      return amount + ' ' + currency;
    }
    var places = amount.indexOf('.') < 0 ? 0 : amount.length - amount.indexOf('.') - 1;
    return new Intl.NumberFormat(LANGUAGE, { style: 'currency', currency: currency, minimumFractionDigits: places,
      maximumFractionDigits: places }).format(Number(amount));
  }

  // Like the server's review, one sum per currency if the cart mixes them; the page gives the words.
  function total() {
    var sums = {};
    for (var i = 0; i < quantities.length; i++) {
      var typed = quantities[i].value.trim();
      if (typed !== '' && (!WHOLE_NUMBER.test(typed) || Number(typed) > MAX_QUANTITY)) {
        return output.dataset.invalid;
      }
      var count = Number(typed);
      if (count > 0) {
        var price = quantities[i].dataset.price;
        var currency = quantities[i].dataset.currency;
        var sum = sums[currency] || (sums[currency] = { minor: 0, places: decimals(price) });
        sum.minor += count * minorUnits(price);
      }
    }
    var currencies = Object.keys(sums).sort();
    if (currencies.length === 0) {
      return output.dataset.nothing;
    }
    return currencies.map(function (currency) {
      return money(written(sums[currency].minor, sums[currency].places), currency);
    }).join(' + ');
  }

  function show() {
    output.textContent = total();
  }

  quantities.forEach(function (input) { input.addEventListener('input', show); });
  // The history may bring the page back with the quantities the customer had typed.
  window.addEventListener('pageshow', show);
  document.getElementById('live-total').hidden = false;
  show();
}());
