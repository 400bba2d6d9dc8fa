(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('report-data').textContent);
  var SVG = document.getElementById('svg-ns').namespaceURI; // not spelt: the page holds no URL

  function byId(id) { return document.getElementById(id); }
  function make(ns, tag, attrs, text) {
    var e = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function h(parent, tag, attrs, text) { return parent.appendChild(make(null, tag, attrs, text)); }
  function s(parent, tag, attrs, text) { return parent.appendChild(make(SVG, tag, attrs, text)); }
  function tip(e, text) { s(e, 'title', {}, text); return e; }

  function int(n) { return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ','); }
  function num(x) {
    if (!isFinite(x)) return '-';
    if (Math.abs(x) >= 1000) return int(x);
    return x === 0 ? '0' : String(Number(x.toPrecision(3)));
  }
  function pct(x) { return (100 * (x || 0)).toFixed(1) + ' %'; }
  function bytes(n) {
    var units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], i = 0;
    while (Math.abs(n) >= 1024 && i < units.length - 1) { n /= 1024; i++; }
    return (i ? num(n) : int(n)) + ' ' + units[i];
  }
  function time(c) {
    var us = c / (D.clockMhz || 1);
    return us >= 1000 ? num(us / 1000) + ' ms' : num(us) + ' \u00b5s';
  }
  function heat(t) {
    t = Math.max(0, Math.min(1, t || 0));
    return 'hsl(' + Math.round(55 - 55 * t) + ',85%,' + Math.round(94 - 50 * t) + '%)';
  }
  function ink(t) { return t > 0.7 ? '#fff' : '#111'; }
  function tileColor(i, n) { return 'hsl(' + Math.round(330 * i / Math.max(n, 1)) + ',65%,42%)'; }
  function sum(a) { return a.reduce(function (x, y) { return x + y; }, 0); }
  function max(a) { return a.reduce(function (x, y) { return Math.max(x, y); }, -Infinity); }
  function min(a) { return a.reduce(function (x, y) { return Math.min(x, y); }, Infinity); }
  function clip(t, n) { return t.length > n ? t.slice(0, n - 1) + '\u2026' : t; }
  function stepsText(steps) {
    var active = steps.filter(function (x) { return x > 0; });
    if (!active.length) return '-';
    var total = sum(active), most = max(active);
    var each = most === 1 ? '' : total === most * active.length ? ' (' + most + ' each)' : ' (\u2264 ' + most + ' each)';
    return int(total) + ' on ' + active.length + (active.length === 1 ? ' tile' : ' tiles') + each;
  }
  function nodesText(g) { return g.nodes.length ? g.nodes.join(', ') : '-'; }
  function groupLabel(g) { return 'group ' + g.index + ' (' + g.op + ')'; }

  var groups = D.groups.filter(function (g) { return !g.view; });
  var maxShare = Math.max(1e-9, max(groups.map(function (g) { return g.share; })));

  function linear(d0, d1, r0, r1) {
    return function (v) { return r0 + (r1 - r0) * (d1 === d0 ? 0 : (v - d0) / (d1 - d0)); };
  }
  function logScale(d0, d1, r0, r1) {
    var a = Math.log10(d0), b = Math.log10(d1);
    return function (v) { return r0 + (r1 - r0) * (Math.log10(v) - a) / (b - a); };
  }
  function niceMax(v) {
    if (!(v > 0)) return 1;
    var p = Math.pow(10, Math.floor(Math.log10(v))), m = v / p;
    return [1, 1.2, 1.6, 2, 2.4, 3, 4, 5, 6, 8, 10].filter(function (c) { return c >= m * 0.9999; })[0] * p;
  }
  // For bytes: a round number of KiB, MiB, ... (ticks at quarters of it).
  function niceBytes(v) {
    var unit = 1;
    while (v >= 1024 * unit) unit *= 1024;
    var m = v / unit;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 4 ? 4 : m <= 8 ? 8 : m <= 16 ? 16 : m <= 32 ? 32 : m <= 64 ? 64 :
            m <= 128 ? 128 : m <= 256 ? 256 : m <= 512 ? 512 : 1024) * unit;
  }
  function decade(v) {
    if (v >= 1e9) return v / 1e9 + 'G';
    if (v >= 1e6) return v / 1e6 + 'M';
    if (v >= 1e3) return v / 1e3 + 'k';
    return String(Number(v.toPrecision(1)));
  }
  function f1(v) { return v.toFixed(1); }

  // An <svg> of the given size; the plot area inside margins [top, right, bottom, left].
  function frame(svg, w, hh, m) {
    svg.setAttribute('width', w);
    svg.setAttribute('height', hh);
    svg.setAttribute('viewBox', '0 0 ' + w + ' ' + hh);
    return { left: m[3], top: m[0], right: w - m[1], bottom: hh - m[2] };
  }
  function yLabel(svg, f, label) {
    var cy = (f.top + f.bottom) / 2;
    s(svg, 'text', { x: 14, y: cy, class: 'axis-label', 'text-anchor': 'middle', transform: 'rotate(-90 14 ' + cy + ')' },
      label);
  }
  function xLabel(svg, f, label) {
    s(svg, 'text', { x: (f.left + f.right) / 2, y: f.bottom + 36, class: 'axis-label', 'text-anchor': 'middle' }, label);
  }
  function yAxis(svg, f, top, y, fmt, label) {
    for (var i = 0; i <= 4; i++) {
      var v = top * i / 4, yy = f1(y(v));
      s(svg, 'line', { x1: f.left, x2: f.right, y1: yy, y2: yy, class: 'grid' });
      s(svg, 'text', { x: f.left - 6, y: f1(y(v) + 4), class: 'tick', 'text-anchor': 'end' }, fmt(v));
    }
    yLabel(svg, f, label);
  }
  function ceiling(svg, f, yy, label) {
    s(svg, 'line', { x1: f.left, x2: f.right, y1: f1(yy), y2: f1(yy), class: 'ceiling' });
    s(svg, 'text', { x: f.right - 4, y: f1(yy - 4), class: 'ceiling-label', 'text-anchor': 'end' }, label);
  }

  // Columns: one slot per item, one bar per series in it.
  function columnChart(svg, items, bars, opts) {
    var per = Math.max(3, Math.min(14, Math.floor(900 / Math.max(items.length, 1) / bars.length)));
    var slot = per * bars.length + 2;
    var f = frame(svg, Math.max(400, 110 + items.length * slot), 290, [22, 20, 46, 84]);
    var top = niceMax(max([opts.ref || 0, 1].concat(items.map(function (it) { return max(it.values); }))));
    var y = linear(0, top, f.bottom, f.top);
    yAxis(svg, f, top, y, opts.fmt || num, opts.yLabel);
    var every = Math.ceil(items.length / 40);
    items.forEach(function (it, i) {
      var x0 = f.left + 4 + i * slot;
      it.values.forEach(function (v, k) {
        tip(s(svg, 'rect', { x: x0 + k * per, y: f1(y(v)), width: per > 4 ? per - 1 : per,
                             height: f1(Math.max(0, f.bottom - y(v))), class: bars[k].cls }), it.title);
      });
      if (i % every === 0)
        s(svg, 'text', { x: f1(x0 + slot / 2), y: f.bottom + 14, class: 'tick', 'text-anchor': 'middle' }, it.label);
    });
    if (opts.ref) ceiling(svg, f, y(opts.ref), opts.refLabel);
    xLabel(svg, f, opts.xLabel);
    bars.forEach(function (b, k) {
      var lx = f.left + 10 + k * 130;
      s(svg, 'rect', { x: lx, y: 4, width: 10, height: 10, class: b.cls + ' legend' });
      s(svg, 'text', { x: lx + 14, y: 13, class: 'tick' }, b.name);
    });
    if (!items.length)
      s(svg, 'text', { x: (f.left + f.right) / 2, y: (f.top + f.bottom) / 2, class: 'axis-label',
                       'text-anchor': 'middle' }, opts.empty || 'none');
  }

  // Step series over the run (one value per bucket of cycles); `area` fills under the first.
  function timeChart(svg, list, opts) {
    var f = frame(svg, 1000, 300, [20, 170, 52, 84]);
    var cycles = Math.max(D.cycles, 1);
    var x = linear(0, cycles, f.left, f.right);
    var top = (opts.fmt === bytes ? niceBytes : niceMax)(
      max([opts.ref || 0, 1].concat(list.map(function (l) { return max(l.values.concat([0])); }))));
    var y = linear(0, top, f.bottom, f.top);
    yAxis(svg, f, top, y, opts.fmt, opts.yLabel);
    // Ticks at round cycles: a step of 1, 2 or 5 times a power of ten, 4 to 10 of them.
    var p = Math.pow(10, Math.floor(Math.log10(cycles / 4))), step = cycles / p > 20 ? 5 * p : cycles / p > 8 ? 2 * p : p;
    for (var c = 0; c <= cycles; c += step) {
      var xx = f1(x(c));
      s(svg, 'line', { x1: xx, x2: xx, y1: f.top, y2: f.bottom, class: 'grid' });
      s(svg, 'text', { x: xx, y: f.bottom + 16, class: 'tick', 'text-anchor': 'middle' }, int(c));
    }
    xLabel(svg, f, 'cycle (' + int(D.cycles) + ' cycles, ' + time(D.cycles) + ')');
    list.forEach(function (l, k) {
      var pts = [];
      l.values.forEach(function (v, b) {
        var a = Math.min(b * l.bucket, cycles), e = Math.min((b + 1) * l.bucket, cycles);
        pts.push(f1(x(a)) + ',' + f1(y(v)), f1(x(e)) + ',' + f1(y(v)));
      });
      if (l.area) {
        pts.unshift(f1(x(0)) + ',' + f1(y(0)));
        pts.push(f1(x(cycles)) + ',' + f1(y(0)));
        tip(s(svg, 'polygon', { points: pts.join(' '), class: 'area' }), l.name);
        return;
      }
      tip(s(svg, 'polyline', { points: pts.join(' '), fill: 'none', stroke: l.color, 'stroke-width': 1.3,
                               class: 'series' }), l.name);
      if (k < 17) {
        var ly = f.top + 4 + k * 14;
        s(svg, 'line', { x1: f.right + 10, x2: f.right + 26, y1: ly, y2: ly, stroke: l.color, 'stroke-width': 2.5 });
        s(svg, 'text', { x: f.right + 30, y: ly + 4, class: 'tick' }, k < 16 ? l.legend : '\u2026');
      }
    });
    if (opts.ref) ceiling(svg, f, y(opts.ref), opts.refLabel);
  }

  // A table whose columns sort on a click (numbers largest first, then alternating).
  function sortableTable(table, columns, rows) {
    var head = h(h(table, 'thead'), 'tr'), body = h(table, 'tbody');
    var state = { col: -1, dir: 1 };
    var order = rows.map(function (row) {
      var tr = make(null, 'tr');
      columns.forEach(function (c) {
        var td = h(tr, 'td', c.num ? { class: 'num' } : {}, c.text(row));
        if (c.decorate) c.decorate(td, row);
      });
      return { row: row, tr: tr };
    });
    function render() { order.forEach(function (o) { body.appendChild(o.tr); }); }
    columns.forEach(function (c, k) {
      var th = h(head, 'th', { scope: 'col', tabindex: '0', class: c.num ? 'num' : '' }, c.label);
      function sortBy() {
        state.dir = state.col === k ? -state.dir : (c.num ? -1 : 1);
        state.col = k;
        order.sort(function (a, b) {
          var u = c.value(a.row), v = c.value(b.row);
          return (u < v ? -1 : u > v ? 1 : 0) * state.dir || a.row.index - b.row.index;
        });
        Array.prototype.forEach.call(head.children, function (t) { t.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', state.dir > 0 ? 'ascending' : 'descending');
        render();
      }
      th.addEventListener('click', sortBy);
      th.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sortBy(); }
      });
    });
    render();
  }
  function shareCell(td, g) {
    var t = g.share / maxShare;
    td.style.background = heat(t);
    td.style.color = ink(t);
  }

  function summarySection() {
    var box = byId('summary-cards');
    var estimate = sum(groups.map(function (g) { return g.estimate; }));
    var simulated = sum(groups.map(function (g) { return g.cycles; }));
    var withMacs = groups.filter(function (g) { return g.macs > 0; }).length;
    var ddr = sum(groups.map(function (g) { return g.ddrBytes; }));
    [['Model', D.model], ['Target', D.target], ['Tiles', D.tiles + ' of the chip\u2019s ' + D.chipTiles],
     ['Simulated', int(D.cycles) + ' cycles'], ['Time', time(D.cycles) + ' at ' + D.clockMhz + ' MHz'],
     ['Chip peak utilisation', pct(D.chipPeakUtilisation)],
     ['NE format', D.neFormat + ', ' + int(D.neMacsPerCycle) + ' MAC/cycle per tile' +
      (D.neFormat !== D.precision ? ' (compiled with --precision ' + D.precision + ')' : '')], ['MACs', int(D.macs)],
     ['Groups', groups.length + ' (' + withMacs + ' with MACs)'],
     ['Estimate (sum over groups)', int(estimate) + ' cycles; simulated ' + int(simulated) +
      (estimate ? ' (\u00d7' + num(simulated / estimate) + ')' : '')],
     ['DDR traffic', bytes(ddr)], ['Trace', int(D.slices) + ' instruction slices']
    ].forEach(function (kv) {
      var card = h(box, 'div', { class: 'card' });
      h(card, 'div', { class: 'k' }, kv[0]);
      h(card, 'div', { class: 'v' }, kv[1]);
    });
  }

  function groupsSection() {
    var n = function (key) { return function (g) { return g[key]; }; };
    sortableTable(byId('groups-table'), [
      { label: 'Group', num: true, value: n('index'), text: n('index') },
      { label: 'Op', value: n('op'), text: n('op') },
      { label: 'ONNX nodes', value: nodesText, text: nodesText, decorate: function (td) { td.className = 'nodes'; } },
      { label: 'Tiles', num: true, value: n('tiles'), text: n('tiles') },
      { label: 'Steps', num: true, value: function (g) { return sum(g.steps); },
        text: function (g) { return stepsText(g.steps); } },
      { label: 'Simulated cycles', num: true, value: n('cycles'),
        text: function (g) { return g.inTrace ? int(g.cycles) : 'not in the trace'; } },
      { label: 'Estimate', num: true, value: n('estimate'), text: function (g) { return int(g.estimate); } },
      { label: 'Sim / est', num: true, value: n('ratio'), text: function (g) { return g.ratio ? num(g.ratio) : '-'; },
        decorate: function (td, g) {
          if (g.ratio > 1.1) td.classList.add('slow');
          else if (g.ratio && g.ratio < 0.9) td.classList.add('fast');
        } },
      { label: 'Share', num: true, value: n('share'), text: function (g) { return pct(g.share); }, decorate: shareCell },
      { label: 'MACs', num: true, value: n('macs'), text: function (g) { return int(g.macs); } },
      { label: 'DDR bytes', num: true, value: n('ddrBytes'), text: function (g) { return bytes(g.ddrBytes); } },
      { label: 'Busiest engine', value: n('busiest'), text: function (g) { return g.busiest || '-'; } }
    ], groups);
    columnChart(byId('groups-chart'), groups.map(function (g) {
      return { label: String(g.index), values: [g.cycles, g.estimate],
               title: groupLabel(g) + ': simulated ' + int(g.cycles) + ' cycles, estimate ' + int(g.estimate) +
                      (g.ratio ? ' (sim / est ' + num(g.ratio) + ')' : '') };
    }), [{ name: 'simulated', cls: 'bar-sim' }, { name: 'estimate', cls: 'bar-est' }],
    { yLabel: 'cycles', xLabel: 'group', fmt: num, empty: 'no groups' });
  }

  function rooflineSection() {
    var svg = byId('roofline-plot'), bw = D.ddrBytesPerCycle;
    var pts = groups.filter(function (g) { return g.macs > 0 && g.cycles > 0; });
    var others = groups.filter(function (g) { return g.inTrace && !(g.macs > 0); });
    byId('roofline-count').textContent = pts.length + ' of the ' + groups.length + ' groups have MACs and are plotted; ' +
      others.length + ' without MACs are below.';
    // One NE ceiling per format and tile count the plotted groups run at.
    var roofs = {};
    pts.forEach(function (g) {
      roofs[g.neFormat + ', ' + g.peakTiles + (g.peakTiles === 1 ? ' tile' : ' tiles')] = g.peak;
    });
    if (!pts.length) roofs[D.neFormat + ', ' + D.tiles + ' tiles'] = 2 * D.neMacsPerCycle * D.tiles;
    var names = Object.keys(roofs).sort(function (a, b) { return roofs[a] - roofs[b] || (a < b ? -1 : 1); });
    var peaks = names.map(function (n) { return roofs[n]; });
    var ridges = peaks.map(function (p) { return p / bw; });
    var ais = pts.filter(function (g) { return g.intensity > 0; }).map(function (g) { return g.intensity; });
    var x0 = Math.pow(10, Math.floor(Math.log10(min(ais.concat(ridges))) - 0.3));
    var x1 = Math.pow(10, Math.ceil(Math.log10(max(ais.concat(ridges))) + 0.3));
    var ys = pts.map(function (g) { return g.opsPerCycle; }).concat(peaks, [bw * x0]);
    var y0 = Math.pow(10, Math.floor(Math.log10(min(ys)))), y1 = Math.pow(10, Math.ceil(Math.log10(max(peaks) * 1.5)));
    var f = frame(svg, 820, 500, [20, 30, 58, 84]);
    var x = logScale(x0, x1, f.left, f.right), y = logScale(y0, y1, f.bottom, f.top);
    for (var v = x0; v <= x1 * 1.001; v *= 10) {
      s(svg, 'line', { x1: f1(x(v)), x2: f1(x(v)), y1: f.top, y2: f.bottom, class: 'grid' });
      s(svg, 'text', { x: f1(x(v)), y: f.bottom + 16, class: 'tick', 'text-anchor': 'middle' }, decade(v));
    }
    for (v = y0; v <= y1 * 1.001; v *= 10) {
      s(svg, 'line', { x1: f.left, x2: f.right, y1: f1(y(v)), y2: f1(y(v)), class: 'grid' });
      s(svg, 'text', { x: f.left - 6, y: f1(y(v) + 4), class: 'tick', 'text-anchor': 'end' }, decade(v));
    }
    xLabel(svg, f, 'arithmetic intensity: operations per DDR byte (log)');
    yLabel(svg, f, 'operations per cycle (log; \u00d7 ' + D.clockMhz / 1000 + ' = GOP/s)');
    // DDR: ops/cycle = bytes/cycle x intensity, up to the highest ridge.
    var xa = Math.max(x0, y0 / bw), xb = Math.min(max(ridges), x1);
    s(svg, 'line', { x1: f1(x(xa)), y1: f1(y(bw * xa)), x2: f1(x(xb)), y2: f1(y(bw * xb)), class: 'roof-ddr' });
    s(svg, 'text', { x: f1(x(xa) + 6), y: f1(y(bw * xa) - 8), class: 'roof-ddr-label' }, 'DDR ' + bw + ' B/cycle');
    peaks.forEach(function (p, k) {
      var from = Math.max(x0, p / bw);
      s(svg, 'line', { x1: f1(x(from)), x2: f.right, y1: f1(y(p)), y2: f1(y(p)), class: 'roof-ne' });
      s(svg, 'text', { x: f.right - 4, y: f1(y(p) - 5), class: 'ceiling-label', 'text-anchor': 'end' },
        'NE peak, ' + names[k] + ': ' + int(p) + ' ops/cycle');
    });
    pts.forEach(function (g) {
      var at = g.intensity > 0 ? g.intensity : x1, eff = g.roof > 0 ? g.opsPerCycle / g.roof : 0;
      tip(s(svg, 'circle', { cx: f1(x(at)), cy: f1(y(Math.max(g.opsPerCycle, y0))),
                             r: f1(3 + 9 * Math.sqrt(g.share / maxShare)), class: 'point', fill: heat(eff),
                             'data-group': g.index }),
          groupLabel(g) + ': ' + (g.intensity > 0 ? num(g.intensity) + ' ops/byte'
                                                  : 'no DDR traffic (drawn at the right edge)') +
          ', ' + num(g.opsPerCycle) + ' ops/cycle (NE reads ' + g.neFormat + '), ' + pct(eff) + ' of its roof (' +
          num(g.roof) + ' ops/cycle, ' +
          (g.roof < g.peak ? 'DDR' : 'NE') + '-bound); ' + pct(g.share) + ' of the run');
    });
    if (!pts.length)
      s(svg, 'text', { x: (f.left + f.right) / 2, y: (f.top + f.bottom) / 2, class: 'axis-label',
                       'text-anchor': 'middle' }, 'no group has MACs');
    columnChart(byId('ct-chart'), others.map(function (g) {
      return { label: String(g.index), values: [g.ddrBytesPerCycle],
               title: groupLabel(g) + ': ' + num(g.ddrBytesPerCycle) + ' DDR bytes/cycle (' +
                      pct(g.ddrBytesPerCycle / bw) + ' of DDR) over ' + int(g.cycles) + ' cycles; busiest engine ' +
                      (g.busiest || '-') };
    }), [{ name: 'DDR bytes/cycle', cls: 'bar-ddr' }],
    { yLabel: 'DDR bytes/cycle', xLabel: 'group', fmt: num, ref: bw, refLabel: 'DDR ' + bw + ' B/cycle',
      empty: 'every group has MACs' });
  }

  function enginesSection() {
    var table = byId('engines-table'), names = D.engines.concat(['barrier']);
    var head = h(h(table, 'thead'), 'tr');
    h(head, 'th', { scope: 'col' }, 'Tile');
    names.forEach(function (name) { h(head, 'th', { scope: 'col', class: 'num' }, name); });
    function cell(row, u, title) {
      var td = h(row, 'td', { class: 'num', title: title }, pct(u));
      td.style.background = heat(u);
      td.style.color = ink(u);
    }
    var body = h(table, 'tbody'), mean = names.map(function () { return 0; }), cycles = Math.max(D.cycles, 1);
    D.busy.forEach(function (busy, t) {
      var row = h(body, 'tr');
      h(row, 'th', { scope: 'row' }, 'tile ' + t);
      busy.concat([D.barrier[t] || 0]).forEach(function (c, e) {
        mean[e] += c / cycles / D.busy.length;
        cell(row, c / cycles, int(c) + ' of ' + int(D.cycles) + ' cycles');
      });
    });
    var foot = h(h(table, 'tfoot'), 'tr');
    h(foot, 'th', { scope: 'row' }, 'chip average');
    mean.forEach(function (u) { cell(foot, u, 'mean over ' + D.busy.length + ' tiles'); });
  }

  function memorySection() {
    var peak = max(D.spmSeries.map(function (l) { return max(l.values.concat([0])); }));
    timeChart(byId('spm-chart'), D.spmSeries.map(function (l, t) {
      var p = max(l.values.concat([0]));
      return { bucket: l.bucket, values: l.values, color: tileColor(t, D.spmSeries.length),
               name: 'tile ' + t + ': peak ' + bytes(p) + ' (' + pct(p / D.spmBytes) + ' of the SPM)',
               legend: 'tile ' + t + ': ' + bytes(p) };
    }), { yLabel: 'SPM bytes in use', fmt: bytes, ref: peak > D.spmBytes / 4 ? D.spmBytes : 0,
          refLabel: 'SPM ' + bytes(D.spmBytes) });
    var ddr = D.ddrSeries, moved = sum(ddr.values) * ddr.bucket;
    byId('ddr-source').textContent = (D.ddrFromCounter
      ? 'The mean of the trace\u2019s DDR bandwidth counter in each interval'
      : 'The trace has no DDR bandwidth counter: each RDMA, WDMA and DTE-from-DDR transfer spread evenly over its cycles') +
      '; ' + bytes(moved) + ' in all, ' + num(moved / Math.max(D.cycles, 1)) + ' bytes/cycle on average of ' +
      D.ddrBytesPerCycle + '.';
    timeChart(byId('ddr-chart'), [{ bucket: ddr.bucket, values: ddr.values, area: true, name: 'DDR bytes/cycle' }],
              { yLabel: 'DDR bytes/cycle', fmt: num, ref: D.ddrBytesPerCycle,
                refLabel: 'DDR ' + D.ddrBytesPerCycle + ' B/cycle' });
    ddrSplit();
  }

  function ddrSplit() {
    var u = D.ddrUse, act = Math.max(0, u.bytes - u.constBytes), box = byId('ddr-split');
    var svg = make(SVG, 'svg', { id: 'ddr-split-bar', role: 'img', 'aria-label': 'DDR capacity split' });
    box.appendChild(svg);
    var f = frame(svg, 720, 40, [4, 10, 8, 10]), x = linear(0, Math.max(u.bytes, 1), f.left, f.right);
    tip(s(svg, 'rect', { x: f.left, y: f.top, width: f1(x(u.constBytes) - f.left), height: 28, class: 'ddr-const' }),
        'constants: ' + bytes(u.constBytes));
    tip(s(svg, 'rect', { x: f1(x(u.constBytes)), y: f.top, width: f1(x(u.bytes) - x(u.constBytes)), height: 28,
                         class: 'ddr-act' }), 'activations: ' + bytes(act));
    var table = h(box, 'table', { id: 'ddr-table' }), body = h(table, 'tbody');
    [['constants', u.constBytes, 'consts.bin, bank-aligned'],
     ['activations', act, 'inputs, outputs and intermediates, sharing bytes by lifetime'],
     ['\u2003inputs', u.inputBytes, ''], ['\u2003outputs', u.outputBytes, ''],
     ['\u2003intermediates', u.intermediateBytes, u.intermediates + ' tensors, each counted once (without sharing)'],
     ['the bundle\u2019s DDR', u.bytes, pct(u.bytes / Math.max(u.chipBytes, 1)) + ' of the chip\u2019s ' +
      bytes(u.chipBytes)]].forEach(function (r) {
      var tr = h(body, 'tr');
      h(tr, 'th', { scope: 'row' }, r[0]);
      h(tr, 'td', { class: 'num' }, int(r[1]) + ' bytes');
      h(tr, 'td', { class: 'num' }, bytes(r[1]));
      h(tr, 'td', {}, r[2]);
    });
  }

  function topSection() {
    var table = byId('top-table'), head = h(h(table, 'thead'), 'tr'), body = h(table, 'tbody');
    ['Rank', 'Group', 'Op', 'ONNX nodes', 'Simulated cycles', 'Share', 'Estimate', 'Tiles', 'Steps', 'Sharding']
      .forEach(function (label) { h(head, 'th', { scope: 'col' }, label); });
    D.top.forEach(function (i, rank) {
      var g = D.groups[i], tr = h(body, 'tr');
      h(tr, 'td', { class: 'num' }, rank + 1);
      h(tr, 'td', { class: 'num' }, g.index);
      h(tr, 'td', {}, g.op);
      h(tr, 'td', { class: 'nodes' }, nodesText(g));
      h(tr, 'td', { class: 'num' }, int(g.cycles));
      shareCell(h(tr, 'td', { class: 'num' }, pct(g.share)), g);
      h(tr, 'td', { class: 'num' }, int(g.estimate));
      h(tr, 'td', { class: 'num' }, g.tiles);
      h(tr, 'td', {}, stepsText(g.steps));
      h(tr, 'td', {}, g.sharding.length ? g.sharding.join(' \u00d7 ') : '-');
    });
  }

  function graphSection() {
    var svg = byId('graph-svg'), list = D.groups;
    var cols = 6, bw = 170, bh = 62, gx = 34, gy = 30, m = 10;
    var rows = Math.max(1, Math.ceil(list.length / cols));
    frame(svg, 2 * m + cols * bw + (cols - 1) * gx, 2 * m + rows * bh + (rows - 1) * gy, [0, 0, 0, 0]);
    // Rows run left to right, then right to left, so every arrow is short.
    function pos(i) {
      var r = Math.floor(i / cols), c = i % cols;
      if (r % 2) c = cols - 1 - c;
      return { x: m + c * (bw + gx), y: m + r * (bh + gy) };
    }
    function arrow(x, y, dx, dy) {
      s(svg, 'polygon', { class: 'arrow', points: [x + ',' + y, (x - 7 * dx - 4 * dy) + ',' + (y - 7 * dy - 4 * dx),
                                                    (x - 7 * dx + 4 * dy) + ',' + (y - 7 * dy + 4 * dx)].join(' ') });
    }
    for (var i = 1; i < list.length; i++) {
      var a = pos(i - 1), b = pos(i);
      if (a.y === b.y) {
        var dir = b.x > a.x ? 1 : -1, xa = dir > 0 ? a.x + bw : a.x, xb = dir > 0 ? b.x : b.x + bw, yy = a.y + bh / 2;
        s(svg, 'line', { x1: xa, x2: xb, y1: yy, y2: yy, class: 'edge' });
        arrow(xb, yy, dir, 0);
      } else {
        var xx = a.x + bw / 2;
        s(svg, 'line', { x1: xx, x2: xx, y1: a.y + bh, y2: b.y, class: 'edge' });
        arrow(xx, b.y, 0, 1);
      }
    }
    list.forEach(function (g, k) {
      var p = pos(k), t = g.view ? 0 : g.share / maxShare;
      var box = s(svg, 'g', { class: g.view ? 'box view' : 'box', transform: 'translate(' + p.x + ',' + p.y + ')',
                              'data-group': g.index });
      tip(box, groupLabel(g) + '\nONNX nodes: ' + nodesText(g) + '\n' + (g.view ? 'a DDR view: no work'
          : int(g.cycles) + ' cycles, ' + pct(g.share) + ' of the run; plan: ' + g.tiles + (g.tiles === 1 ? ' tile' : ' tiles') + ', steps ' +
            stepsText(g.steps) + ', sharding ' + (g.sharding.join(' \u00d7 ') || '-')));
      s(box, 'rect', { width: bw, height: bh, rx: 6, fill: g.view ? '#f4f4f4' : heat(t) });
      s(box, 'text', { x: 8, y: 17, class: 'box-title', fill: ink(t) }, clip('g' + g.index + ' ' + g.op, 21));
      s(box, 'text', { x: 8, y: 34, class: 'box-nodes', fill: ink(t) }, clip(nodesText(g), 25));
      s(box, 'text', { x: 8, y: 51, class: 'box-time', fill: ink(t) },
        g.view ? 'view' : pct(g.share) + ' \u00b7 ' + int(g.cycles) + ' cycles');
    });
  }

  var failed = [];
  [['summary', summarySection], ['groups', groupsSection], ['roofline', rooflineSection],
   ['engines', enginesSection], ['memory', memorySection], ['top', topSection], ['graph', graphSection]
  ].forEach(function (section) {
    try {
      section[1]();
    } catch (e) {
      failed.push(section[0] + ': ' + e.message);
      h(byId(section[0]), 'p', { class: 'error' }, 'This section could not be drawn: ' + e.message);
    }
  });
  if (failed.length) {
    document.body.setAttribute('data-error', failed.join('; '));
    console.error('tx8-aot report: ' + failed.join('; '));
  } else {
    document.body.setAttribute('data-rendered', 'yes');
  }
})();
