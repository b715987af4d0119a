// The course companion's JupyterLab extension, prebuilt by hand (no build step, no dependency).
// JupyterLab loads this file (package.json: jupyterlab._build.load) as a module-federation
// container: the object window._JUPYTERLAB["course-companion"], with init(shareScope) and
// get(module). It asks it for two modules, named in package.json:
//   "./extension"  a plugin that gives each slider handle of the widgets the name of its slider,
//                  and one that makes a block of text that scrolls reachable with the keyboard;
//   "./style"      style.css, beside this file, added to the page (links in the text underlined).
var _JUPYTERLAB;
(function () {
  "use strict";
  var name = "course-companion";
  var sheet = new URL("style.css", document.currentScript.src).href;

  // An ipywidgets slider (IntSlider, FloatSlider, FloatLogSlider, SelectionSlider) is a
  // .widget-slider box holding its description, a .widget-label, and noUiSlider's handle, a
  // div with the role "slider" but no name: a screen reader says only "slider, 1.00" and axe
  // reports it (aria-input-field-name). The handle gets the label's text as its aria-label,
  // so it says "C, slider, 1.00".
  function nameHandles(slider) {
    var label = slider.querySelector(".widget-label");
    var text = label ? label.textContent.trim() : "";
    slider.querySelectorAll(".noUi-handle").forEach(function (handle) {
      if (text && handle.getAttribute("aria-label") !== text) {
        handle.setAttribute("aria-label", text);
      }
    });
  }

  function nameSlidersIn(element) {
    if (element.matches(".widget-slider")) {
      nameHandles(element);
    }
    element.querySelectorAll(".widget-slider").forEach(nameHandles);
  }

  // Sliders appear when an output is shown, and their handle is built again when a slider's
  // range changes; their label's text may change too. Each change of the page's tree is looked
  // at where it happened only: the slider it happened in, or the elements it added.
  function watch(records) {
    records.forEach(function (record) {
      var slider = record.target.closest ? record.target.closest(".widget-slider") : null;
      if (slider) {
        nameHandles(slider);
        return;
      }
      record.addedNodes.forEach(function (node) {
        if (node.nodeType === Node.ELEMENT_NODE) {
          nameSlidersIn(node);
        }
      });
    });
  }

  var sliderNames = {
    id: name + ":slider-names",
    description: "Names each widget slider's handle after its label, for screen readers.",
    autoStart: true,
    activate: function () {
      nameSlidersIn(document.body);
      new MutationObserver(watch).observe(document.body, {childList: true, subtree: true});
    }
  };

  // A block of text that scrolls (a paragraph whose inline formula is taller than its line, a
  // wide printed table) takes the keyboard's focus, so it can be scrolled without a mouse
  // (WCAG 2.1.1; axe scrollable-region-focusable), as in the class mode's template. Looked at
  // again a moment after the page changes, never for a demo's new frame.
  var SCROLLERS = ".jp-RenderedMarkdown, .jp-OutputArea-output pre, .jp-RenderedHTMLCommon table";
  var pending = null;

  function reach() {
    pending = null;
    document.querySelectorAll(SCROLLERS).forEach(function (element) {
      var style = getComputedStyle(element);
      var sideways = element.scrollWidth > element.clientWidth + 1 && /auto|scroll/.test(style.overflowX);
      var down = element.scrollHeight > element.clientHeight + 1 && /auto|scroll/.test(style.overflowY);
      if (sideways || down) {
        if (element.tabIndex !== 0) element.tabIndex = 0;
      } else if (element.getAttribute("tabindex") === "0") {
        element.removeAttribute("tabindex");
      }
    });
  }

  function reachSoon(records) {
    var beyondFigures = !records || records.some(function (record) {
      return !(record.target.closest && record.target.closest(".course-figure-html"));
    });
    if (beyondFigures && pending === null) pending = setTimeout(reach, 300);
  }

  var scrollers = {
    id: name + ":scrollers",
    description: "Makes a block of text that scrolls reachable with the keyboard.",
    autoStart: true,
    activate: function () {
      reachSoon();
      new MutationObserver(reachSoon).observe(document.body, {childList: true, subtree: true});
      window.addEventListener("resize", function () { reachSoon(); });
    }
  };

  function addStyleSheet() {
    if (!document.querySelector("link[data-course-style]")) {
      var link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = sheet;
      link.setAttribute("data-course-style", name);
      document.head.appendChild(link);
    }
  }

  // Each factory returns a module as a bundler would: JupyterLab reads the plugins of
  // "./extension" from its default export, and only runs "./style".
  var modules = {
    "./extension": function () { return {__esModule: true, default: [sliderNames, scrollers]}; },
    "./style": function () { addStyleSheet(); return {}; }
  };

  (_JUPYTERLAB = _JUPYTERLAB || {})[name] = {
    init: function () { return Promise.resolve(); },  // it shares no module with JupyterLab
    get: function (module) {
      if (!modules.hasOwnProperty(module)) {
        return Promise.reject(new Error(name + " has no module " + module));
      }
      return Promise.resolve(modules[module]);
    }
  };
})();
