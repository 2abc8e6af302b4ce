<?php
// The router of `php -S` for WordPress: a file that exists is served as it is (false), every
// other path goes to index.php, as Apache's mod_rewrite rules of WordPress's .htaccess do, so
// that pretty permalinks and the REST API's /wp-json/... routes work.
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$file = $_SERVER['DOCUMENT_ROOT'] . $path;
if ($path !== '/' && file_exists($file) && !is_dir($file)) {
    return false;
}
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = $_SERVER['DOCUMENT_ROOT'] . '/index.php';
$_SERVER['PHP_SELF'] = '/index.php';
require $_SERVER['DOCUMENT_ROOT'] . '/index.php';
