/* Meta statistics charts: reads the data of <script id="meta-charts" type="application/json">
   and draws each <canvas data-meta-chart="…"> with Chart.js (vendor/chartjs, served from our
   own static files; no inline script, CSP script-src 'self'). */
(function () {
  "use strict";
  function draw() {
    var source = document.getElementById("meta-charts");
    if (!source || typeof window.Chart === "undefined") { return; }
    var data = JSON.parse(source.textContent);
    var byCode = { cards: data.cards };
    data.features.forEach(function (f) { byCode[f.code] = f; });
    var colours = ["#2f6f9f", "#d08a2c", "#5a9a4a", "#9a4a7a"];
    document.querySelectorAll("canvas[data-meta-chart]").forEach(function (canvas) {
      var chart = byCode[canvas.dataset.metaChart];
      if (!chart) { return; }
      canvas.dataset.rendered = "pending";
      new window.Chart(canvas, {
        type: "bar",
        data: {
          labels: chart.labels,
          datasets: chart.series.map(function (s, i) {
            return { label: s.label, data: s.data, backgroundColor: colours[i % colours.length] };
          })
        },
        options: {
          indexAxis: "y",
          maintainAspectRatio: false,
          animation: false,
          scales: { x: { stacked: true, beginAtZero: true, ticks: { precision: 0 } }, y: { stacked: true } }
        }
      });
      canvas.dataset.rendered = "yes";
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", draw);
  } else {
    draw();
  }
}());
