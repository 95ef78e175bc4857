// placeholder, replaced during development
