// The checkout page's behaviour: the countdown, polling the payment's status, showing the result and
// returning the payer to the merchant, copy buttons, and the sandbox Pay/Decline buttons. It reads its
// settings from data attributes and only ever writes text and attributes, never markup.
(function () {
  'use strict';

  var POLL_INTERVAL_MS = 2000;
  /** Payment details usually arrive within a second: look sooner while they are being prepared. */
  var PREPARING_POLL_INTERVAL_MS = 1000;
  var REDIRECT_DELAY_MS = 2000;
  var FINAL_STATUSES = ['Success', 'Failed', 'Expired', 'Refund'];

  var root = document.getElementById('checkout');
  if (!root) return;

  var statusUrl = root.getAttribute('data-status-url');
  var sandboxUrl = root.getAttribute('data-sandbox-url');
  var state = root.getAttribute('data-state');
  var deadline = performance.now() + Number(root.getAttribute('data-expires-in-ms') || 0);
  var countdown = document.getElementById('countdown');
  var pollTimer = null;
  var polling = false;

  var announcer = document.createElement('p');
  announcer.className = 'sr-only';
  announcer.setAttribute('aria-live', 'polite');
  document.body.appendChild(announcer);

  function announce(text) {
    announcer.textContent = '';
    window.setTimeout(function () { announcer.textContent = text; }, 50);
  }

  /** Only absolute http(s) URLs are ever navigated to; anything else (javascript:, data:) is dropped. */
  function httpUrl(text) {
    if (typeof text !== 'string') return null;
    try {
      var url = new URL(text);
      return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
    } catch (error) {
      return null;
    }
  }

  function twoDigits(value) {
    return (value < 10 ? '0' : '') + value;
  }

  function tick() {
    if (!countdown || state === 'final') return;
    var secondsLeft = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
    countdown.textContent = twoDigits(Math.floor(secondsLeft / 60)) + ':' + twoDigits(secondsLeft % 60);
    root.classList.toggle('timer-urgent', secondsLeft <= 60);
    if (secondsLeft === 0) pollNow();
  }

  function finish(body) {
    if (state === 'final' || FINAL_STATUSES.indexOf(body.status) < 0) return;
    state = 'final';
    window.clearTimeout(pollTimer);
    root.setAttribute('data-state', 'final');
    root.setAttribute('data-status', body.status);
    var pending = document.getElementById('pending');
    if (pending) pending.hidden = true;

    var panel = root.querySelector('[data-result="' + body.status + '"]');
    if (!panel) return;
    var target = httpUrl(body.returnUrl);
    var link = panel.querySelector('.return-link');
    if (link && target) link.setAttribute('href', target.toString());
    else if (link) link.remove();
    if (target) panel.querySelector('.redirect-notice').hidden = false;
    panel.hidden = false;
    var heading = panel.querySelector('h2');
    if (heading) {
      heading.setAttribute('tabindex', '-1');
      heading.focus();
    }
    if (target) {
      window.setTimeout(function () { window.location.assign(target.toString()); }, REDIRECT_DELAY_MS);
    }
  }

  function apply(body) {
    if (!body || typeof body.status !== 'string') return;
    if (typeof body.expiresInMs === 'number') deadline = performance.now() + body.expiresInMs;
    if (body.final) {
      finish(body);
    } else if (state === 'preparing' && body.instructions) {
      // The payment details are rendered on the server (QR codes included): fetch the page again.
      window.location.reload();
    }
  }

  function schedulePoll(delayMs) {
    window.clearTimeout(pollTimer);
    if (state !== 'final') pollTimer = window.setTimeout(pollNow, delayMs);
  }

  function pollNow() {
    if (polling || state === 'final' || !statusUrl) return;
    polling = true;
    fetch(statusUrl, { cache: 'no-store', credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(apply, function () { /* offline for a moment: the next poll retries */ })
      .then(function () {
        polling = false;
        schedulePoll(state === 'preparing' ? PREPARING_POLL_INTERVAL_MS : POLL_INTERVAL_MS);
      });
  }

  function copyWithSelection(text) {
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'offscreen';
    document.body.appendChild(area);
    area.select();
    var copied = false;
    try {
      copied = document.execCommand('copy');
    } catch (error) {
      copied = false;
    }
    area.remove();
    return copied;
  }

  function onCopy(event) {
    var button = event.currentTarget;
    var text = button.getAttribute('data-copy') || '';
    var done = function (copied) {
      button.textContent = copied ? 'Copied' : 'Copy failed';
      announce(copied ? 'Copied ' + text : 'Could not copy; select the text instead');
      window.setTimeout(function () { button.textContent = 'Copy'; }, 2000);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(copyWithSelection(text)); });
    } else {
      done(copyWithSelection(text));
    }
  }

  function sandboxError(text) {
    var box = root.querySelector('.sandbox-error');
    if (!box) return;
    box.textContent = text;
    box.hidden = !text;
  }

  function onSandbox(event) {
    var outcome = event.currentTarget.getAttribute('data-sandbox-outcome');
    var buttons = root.querySelectorAll('[data-sandbox-outcome]');
    var setBusy = function (busy) {
      for (var i = 0; i < buttons.length; i += 1) buttons[i].disabled = busy;
    };
    setBusy(true);
    sandboxError('');
    fetch(sandboxUrl, {
      method: 'POST',
      cache: 'no-store',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-checkout-action': '1' },
      body: JSON.stringify({ outcome: outcome }),
    })
      .then(function (response) {
        return response.json().then(function (body) { return { ok: response.ok, body: body }; });
      })
      .then(function (result) {
        if (result.ok) {
          apply(result.body);
          pollNow();
          return;
        }
        var detail = result.body && result.body.data && result.body.data.detail;
        sandboxError(typeof detail === 'string' ? detail : 'The sandbox action failed.');
        setBusy(false);
      }, function () {
        sandboxError('Could not reach the server. Try again.');
        setBusy(false);
      });
  }

  var copyButtons = root.querySelectorAll('[data-copy]');
  for (var i = 0; i < copyButtons.length; i += 1) copyButtons[i].addEventListener('click', onCopy);
  var sandboxButtons = root.querySelectorAll('[data-sandbox-outcome]');
  for (var j = 0; j < sandboxButtons.length; j += 1) sandboxButtons[j].addEventListener('click', onSandbox);

  if (state !== 'final') {
    tick();
    window.setInterval(tick, 1000);
    schedulePoll(state === 'preparing' ? PREPARING_POLL_INTERVAL_MS : POLL_INTERVAL_MS);
    // Back from the UPI or wallet app: check at once instead of waiting for the next poll.
    document.addEventListener('visibilitychange', function () {
      if (document.visibilityState === 'visible') pollNow();
    });
  }
})();
