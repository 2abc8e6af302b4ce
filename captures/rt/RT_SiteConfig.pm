# The site configuration of one fresh RT instance (start.sh sets RT_SITE_CONFIG to this file and
# RT_SITE_CONFIG_DIR to an empty folder, so Debian's /etc/request-tracker5 is never read).
# RT_CAPENV_HOME names the instance's home: its SQLite database and Mason caches live there.
my $home = $ENV{RT_CAPENV_HOME} or die "RT_CAPENV_HOME is not set\n";
Set($rtname, 'capenv.test');
Set($Organization, 'capenv.test');
# Links in answers (_url, _hyperlinks) name this base whatever port the instance listens on, so a
# recording and a later start on another port answer alike.
Set($WebDomain, '127.0.0.1');
Set($WebPort, 80);
Set($WebPath, '');
Set($WebBaseURL, 'http://127.0.0.1');
Set($DatabaseType, 'SQLite');
Set($DatabaseName, "$home/rt.sqlite");
Set($DatabaseHost, '');
Set($DatabaseUser, '');
Set($DatabasePassword, '');
Set($MasonDataDir, "$home/mason_data");
Set($MasonSessionDir, "$home/session_data");
Set($LogToSyslog, undef);
Set($LogToFile, undef);
Set($LogToSTDERR, 'warning');
# Every API call authenticates by HTTP Basic: bcrypt's lowest cost keeps each check cheap (speed
# only; the password is a throwaway).
Set($BcryptCost, 4);
Set($Timezone, 'UTC');
Set($CorrespondAddress, 'rt@capenv.test');
Set($CommentAddress, 'rt-comment@capenv.test');
# No mail leaves the machine: outgoing mail is written to files in the home's tmp.
Set($MailCommand, 'testfile');
1;
