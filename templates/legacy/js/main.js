// Legacy captive portal script (no framework). Validates the connect form; a real deployment posts
// to the aircraft's network gateway.
(function () {
  var form = document.getElementById('connect');
  if (!form) return;
  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    var staff = document.getElementById('staff').value.trim();
    var accepted = document.getElementById('accept').checked;
    var message = document.getElementById('message');
    message.className = '';
    if (!/^[0-9]{6}$/.test(staff)) { message.textContent = 'Please enter your 6-digit staff number.'; return; }
    if (!accepted) { message.textContent = 'Please accept the terms of use.'; return; }
    message.className = 'ok';
    message.textContent = 'Connected. You can close this page.';
  });
})();
