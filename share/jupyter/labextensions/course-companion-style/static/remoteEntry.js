// The course companion's style sheet as a prebuilt JupyterLab extension, without a build step:
// JupyterLab loads this file as a module-federation container (window._JUPYTERLAB[name], with
// init and get) and asks it for the module "./style" (package.json, jupyterlab._build.style);
// that module adds style.css, beside this file, to the page.
var _JUPYTERLAB;
(function () {
  var name = "course-companion-style";
  var sheet = new URL("style.css", document.currentScript.src).href;
  (_JUPYTERLAB = _JUPYTERLAB || {})[name] = {
    init: function () { return Promise.resolve(); },
    get: function (module) {
      if (module !== "./style") {
        return Promise.reject(new Error(name + " has no module " + module));
      }
      return Promise.resolve(function () {
        if (!document.querySelector("link[data-course-style]")) {
          var link = document.createElement("link");
          link.rel = "stylesheet";
          link.href = sheet;
          link.setAttribute("data-course-style", name);
          document.head.appendChild(link);
        }
        return {};
      });
    }
  };
})();
